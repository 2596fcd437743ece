import type { ReceiptArticle, ReceiptStatement } from '@back-office/contract/receipts';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CsvExportMenu } from '../../../components/csv-dialect-menu-items.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError, exportRefusedReason } from '../../../lib/api-error.ts';
import { organisationYear } from '../../../lib/calendar.ts';
import { useCsvDialect } from '../../../lib/csv-dialect.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useDownloadReceiptStatementPdf } from '../api/download-receipt-statement-pdf.ts';
import { useExportReceiptStatement } from '../api/export-receipt-statement.ts';
import { useReceiptStatement } from '../api/get-receipt-statement.ts';

/** The first year a statement can be asked for (the contract's lower bound). */
const FIRST_STATEMENT_YEAR = 2000;

/** The years offered, newest first: this year where the organisation is, back to 2000. */
function statementYearOptions(now: Date = new Date()): string[] {
  const current = organisationYear(now);
  return Array.from({ length: current - FIRST_STATEMENT_YEAR + 1 }, (_, index) => String(current - index));
}

/** How each article of the tax code a receipt ticks reads on screen. */
const ARTICLE_LABELS: Record<ReceiptArticle, string> = {
  '200': 'Article 200 — individual donors',
  '238 bis': 'Article 238 bis — companies',
  '978': 'Article 978 — real estate wealth tax',
};

/** An amount in euros, the French way: `1 234,50 €`. */
const euros = (amount: number) => `${formatMoney(amount)} €`;

/** The sentence for people of a refusal the server explains (409: a rate missing, a currency without code). */
function refusalReason(error: unknown): string | undefined {
  return error instanceof ApiError && error.status === 409 ? error.detail : undefined;
}

/**
 * The annual statement of tax receipts (CGI art. 222 bis; Administrators only): choose a year (last
 * year by default), see how many Cerfa receipts were issued in it and not cancelled and the total of
 * the gifts they state, in euros, and the same per article of the tax code; download it as a PDF to
 * file, or export it as CSV.
 */
export function ReceiptStatementScreen() {
  const [year, setYear] = useState(() => String(organisationYear() - 1));
  const statement = useReceiptStatement(Number(year));
  const downloadPdf = useDownloadReceiptStatementPdf();
  const exportStatement = useExportReceiptStatement();
  const [dialect] = useCsvDialect();

  const handleDownload = () => {
    downloadPdf.mutate(Number(year), {
      onError: (error) => notifyError('downloading the statement', refusalReason(error)),
    });
  };
  const handleExport = () => {
    exportStatement.mutate(
      { year: Number(year), dialect },
      {
        onError: (error) =>
          notifyError('exporting the statement', exportRefusedReason(error) ?? refusalReason(error)),
      },
    );
  };

  return (
    <>
      <PageHeader
        title="Annual statement of receipts"
        actions={
          <Button variant="default" component={Link} to={paths.receipts.href()}>
            Back to Receipts
          </Button>
        }
      />
      <Stack gap="lg">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Text>
              The number of tax receipts issued in the year and the total of the gifts they state, which the
              organisation declares each year (CGI art. 222 bis). French receipts (Cerfa) only, counted in the
              year of their issue; cancelled receipts are left out, their replacements counted. Amounts in
              euros.
            </Text>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <Select
                label="Year"
                data={statementYearOptions()}
                value={year}
                onChange={(value) => setYear(value ?? year)}
                allowDeselect={false}
                w={140}
              />
              <Button
                variant="default"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={downloadPdf.isPending}
                onClick={handleDownload}
              >
                Download PDF
              </Button>
              <CsvExportMenu busy={exportStatement.isPending}>
                <Menu.Item onClick={handleExport}>Export the statement</Menu.Item>
              </CsvExportMenu>
            </Group>
          </Stack>
        </Paper>

        <StatementFigures
          year={year}
          statement={statement.data}
          loading={statement.isPending}
          error={statement.isError ? statement.error : null}
        />
      </Stack>
    </>
  );
}

type StatementFiguresProps = {
  year: string;
  statement: ReceiptStatement | undefined;
  loading: boolean;
  error: Error | null;
};

/** The figures of the statement shown: the count and total, then the table by article. */
function StatementFigures({ year, statement, loading, error }: StatementFiguresProps) {
  if (error) {
    return (
      <Alert color="red" variant="light" title={`The statement of ${year} could not be made`}>
        <Text size="sm">
          {refusalReason(error) ?? 'Please try again or contact your system administrator.'}
        </Text>
      </Alert>
    );
  }
  if (loading || !statement) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label="Loading..." />
      </Center>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        Receipts issued in {statement.year}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <Figure label="Receipts issued" value={formatNumber(statement.receiptCount)} />
        <Figure label="Total of the gifts" value={euros(statement.totalAmount)} />
      </SimpleGrid>
      {statement.receiptCount === 0 ? (
        <EmptyState message={`No tax receipts were issued in ${statement.year}.`} />
      ) : (
        <Paper withBorder radius="md">
          <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="By article of the tax code">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Article of the tax code</Table.Th>
                <Table.Th ta="right">Receipts</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {statement.byType.map((row) => (
                <Table.Tr key={row.type}>
                  <Table.Td>{ARTICLE_LABELS[row.type]}</Table.Td>
                  <Table.Td ta="right">{formatNumber(row.count)}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {euros(row.amount)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row">Total</Table.Th>
                <Table.Td ta="right" fw={700}>
                  {formatNumber(statement.receiptCount)}
                </Table.Td>
                <Table.Td ta="right" fw={700} style={{ whiteSpace: 'nowrap' }}>
                  {euros(statement.totalAmount)}
                </Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}

/** One figure of the statement: its label above its value. */
function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}
