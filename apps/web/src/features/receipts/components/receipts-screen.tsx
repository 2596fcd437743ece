import { type RegisteredReceipt, receiptRegisterQuerySchema } from '@back-office/contract/receipts';
import { Alert, Button, Group, Text, Title } from '@mantine/core';
import { IconReportMoney, IconShieldCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteList } from '../../../components/infinite-table.tsx';
import { SearchPanel, SearchPanelToggle } from '../../../components/search-panel.tsx';
import { paths } from '../../../config/paths.ts';
import { isAdministrator, useCurrentUser } from '../../../entities/current-user/index.ts';
import { exportRefusedReason } from '../../../lib/api-error.ts';
import { useCsvDialect } from '../../../lib/csv-dialect.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useDownloadReceiptPdf } from '../api/download-receipt-pdf.ts';
import { useExportReceipts } from '../api/export-receipts.ts';
import {
  EMPTY_RECEIPT_FILTERS,
  type ReceiptFilters,
  receiptsSearchQueryKey,
  searchReceipts,
} from '../api/search-receipts.ts';
import { useVerifyReceipts } from '../api/verify-receipts.ts';
import { receiptCountText, verifyOutcomeText } from '../receipt-format.ts';
import { type ReceiptChange, ReceiptReasonModal } from './receipt-reason-modal.tsx';
import { ReceiptSearchFields } from './receipt-search-fields.tsx';
import { ReceiptsExportMenu } from './receipts-export-menu.tsx';
import { ReceiptsTable, receiptRowId } from './receipts-table.tsx';

/** A search as it was run: its filters and its number (a new Search is a new list from position 1). */
type Search = { filters: ReceiptFilters; number: number };

/** The receipt a dialog is open for, and what it does to it. */
type ChangeTarget = { receipt: RegisteredReceipt; change: ReceiptChange };

/** The outcome of the last check of the register, shown until dismissed. */
type VerifyOutcome = { ok: boolean; text: string };

/** Why a typed year cannot be searched (the contract's message), or undefined when it can. */
function yearProblem(year: ReceiptFilters['year']): string | undefined {
  if (year === '') return undefined;
  const checked = receiptRegisterQuerySchema.shape.year.safeParse(year);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}

/**
 * The Receipts screen (not in the spec; docs/decisions/023), for every signed-in user: the register of
 * every tax receipt ever issued, by number, cancelled ones too, filtered by year of the gifts and
 * status. Each receipt's PDF can be downloaded as issued; an Administrator cancels an issued receipt
 * or replaces it by the next number, giving the reason. Verify the register has the server check the
 * hash chain and the numbering; Export saves the register as CSV. Administrators also open the annual
 * statement of the receipts issued (CGI art. 222 bis) from here.
 */
export function ReceiptsScreen() {
  const administrator = isAdministrator(useCurrentUser());
  const [filters, setFilters] = useState<ReceiptFilters>(EMPTY_RECEIPT_FILTERS);
  const [yearError, setYearError] = useState<string | undefined>();
  const [search, setSearch] = useState<Search>({ filters: EMPTY_RECEIPT_FILTERS, number: 1 });
  const [panelOpened, setPanelOpened] = useState(true);
  const [dialog, setDialog] = useState<{ opened: boolean; target: ChangeTarget | null }>({
    opened: false,
    target: null,
  });
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  const [dialect] = useCsvDialect();

  const list = useInfiniteList<RegisteredReceipt>({
    queryKey: receiptsSearchQueryKey(search.filters, search.number),
    fetchPage: (listfrom, listlength, signal) => searchReceipts(search.filters, listfrom, listlength, signal),
    getRowId: receiptRowId,
  });
  const downloadPdf = useDownloadReceiptPdf();
  const exportReceipts = useExportReceipts();
  const verify = useVerifyReceipts();

  useEffect(() => {
    if (list.isError) notifyError('getting the receipts');
  }, [list.isError]);

  const handleSearch = () => {
    const problem = yearProblem(filters.year);
    setYearError(problem);
    if (problem) return;
    setSearch((current) => ({ filters, number: current.number + 1 }));
  };
  const handleClear = () => {
    setFilters(EMPTY_RECEIPT_FILTERS);
    setYearError(undefined);
    setSearch((current) => ({ filters: EMPTY_RECEIPT_FILTERS, number: current.number + 1 }));
  };
  const handleVerify = () => {
    setOutcome(null);
    verify.mutate(undefined, {
      onSuccess: (check) => setOutcome({ ok: check.ok, text: verifyOutcomeText(check) }),
      onError: () => notifyError('verifying the register'),
    });
  };
  const handleExport = () => {
    exportReceipts.mutate(
      { filters: search.filters, dialect },
      { onError: (error) => notifyError('exporting the receipts', exportRefusedReason(error)) },
    );
  };
  const handleDownload = (receipt: RegisteredReceipt) => {
    downloadPdf.mutate(receipt.number, { onError: () => notifyError('downloading the receipt') });
  };

  const filtered = search.filters.year !== '' || search.filters.status !== '';

  return (
    <>
      <Group justify="space-between" align="center" mb="lg" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <SearchPanelToggle opened={panelOpened} onToggle={() => setPanelOpened((opened) => !opened)} />
          <Title order={1} size="h2">
            Receipts
          </Title>
          {list.count !== undefined ? (
            <Text c="dimmed" size="sm" aria-live="polite">
              {receiptCountText(list.count)}
            </Text>
          ) : null}
        </Group>
        <Group gap="sm">
          {administrator ? (
            <Button
              variant="default"
              component={Link}
              to={paths.receiptStatement.href()}
              leftSection={<IconReportMoney size={16} aria-hidden />}
            >
              Annual statement
            </Button>
          ) : null}
          <Button
            variant="default"
            leftSection={<IconShieldCheck size={16} aria-hidden />}
            loading={verify.isPending}
            onClick={handleVerify}
          >
            Verify the register
          </Button>
          <ReceiptsExportMenu busy={exportReceipts.isPending} onExport={handleExport} />
        </Group>
      </Group>

      {outcome ? (
        <Alert
          color={outcome.ok ? 'green' : 'red'}
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setOutcome(null)}
          mb="md"
        >
          <Text size="sm">{outcome.text}</Text>
        </Alert>
      ) : null}

      <SearchPanel
        opened={panelOpened}
        onSearch={handleSearch}
        onClear={handleClear}
        searching={list.isFetching && !list.isFetchingNextPage}
        label="Search receipts"
      >
        <ReceiptSearchFields values={filters} onChange={setFilters} yearError={yearError} />
      </SearchPanel>

      <ReceiptsTable
        list={list}
        emptyMessage={
          filtered ? 'No receipts match the search criteria.' : 'No receipts have been issued yet.'
        }
        canChange={administrator}
        downloading={downloadPdf.isPending ? (downloadPdf.variables ?? null) : null}
        onDownload={handleDownload}
        onCancel={(receipt) => setDialog({ opened: true, target: { receipt, change: 'cancel' } })}
        onReplace={(receipt) => setDialog({ opened: true, target: { receipt, change: 'replace' } })}
      />
      <ReceiptReasonModal
        opened={dialog.opened}
        target={dialog.target}
        onClose={() => setDialog((current) => ({ ...current, opened: false }))}
      />
    </>
  );
}
