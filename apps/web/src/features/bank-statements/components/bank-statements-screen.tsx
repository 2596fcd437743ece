import {
  type BankStatementEntry,
  type StatementEntryStatus,
  statementEntryStatusSchema,
} from '@back-office/contract/bank-statements';
import { Alert, Group, Loader, Pagination, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { ENTRIES_PAGE_SIZE, useStatementEntries } from '../api/get-statement-entries.ts';
import { ENTRY_STATUS_LABELS } from '../bank-statement-format.ts';
import { DecideEntryModal, type EntryDecision } from './decide-entry-modal.tsx';
import { StatementEntriesTable } from './statement-entries-table.tsx';
import { StatementImportForm } from './statement-import-form.tsx';

/** The tabs: the review queue first, then what was decided or kept for the record. */
const TAB_ORDER: readonly StatementEntryStatus[] = [
  'unmatched',
  'matched',
  'assigned',
  'dismissed',
  'listed',
];

const EMPTY_MESSAGES: Record<StatementEntryStatus, string> = {
  unmatched: 'Nothing to review: every credit imported was matched or decided.',
  matched: 'No entry was matched to an invoice yet.',
  assigned: 'No entry was assigned yet.',
  dismissed: 'No entry was dismissed yet.',
  listed: 'No debit, return or reversal was listed yet.',
};

/**
 * The Bank statements screen (not in the spec; docs/decisions/033), Administrators only: import a bank
 * statement (see {@link StatementImportForm}), then the review queue of the credits no invoice reference
 * matched, each to pay an invoice, record as a donation or dismiss; tabs show the matched, assigned,
 * dismissed and listed entries. 50 entries a page, oldest first.
 */
export function BankStatementsScreen() {
  const [status, setStatus] = useState<StatementEntryStatus>('unmatched');
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<{ entry: BankStatementEntry; decision: EntryDecision } | null>(
    null,
  );
  const entries = useStatementEntries(status, page);
  const pages = entries.data ? Math.max(1, Math.ceil(entries.data.count / ENTRIES_PAGE_SIZE)) : 1;

  const handleStatus = (value: string | null) => {
    const next = statementEntryStatusSchema.safeParse(value);
    if (!next.success) return;
    setStatus(next.data);
    setPage(1);
  };

  return (
    <>
      <PageHeader title="Bank statements" />
      <Stack gap="xl">
        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="import-statement-heading">
          <Title order={2} size="h3" id="import-statement-heading" mb="md">
            Import a statement
          </Title>
          <StatementImportForm />
        </Paper>
        <section aria-labelledby="entries-heading">
          <Title order={2} size="h3" id="entries-heading" mb="md">
            Review queue
          </Title>
          <Tabs value={status} onChange={handleStatus} keepMounted={false}>
            <Tabs.List mb="md">
              {TAB_ORDER.map((option) => (
                <Tabs.Tab key={option} value={option}>
                  {ENTRY_STATUS_LABELS[option]}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {TAB_ORDER.map((option) => (
              <Tabs.Panel key={option} value={option}>
                {entries.isPending ? (
                  <Loader size="sm" aria-label="Loading the entries..." />
                ) : entries.isError ? (
                  <Alert color="red">The entries could not be loaded.</Alert>
                ) : entries.data.models.length === 0 ? (
                  <EmptyState message={EMPTY_MESSAGES[option]} />
                ) : (
                  <Stack gap="sm">
                    <Text size="sm" aria-live="polite">
                      {formatNumber(entries.data.count)} {entries.data.count === 1 ? 'entry' : 'entries'}
                    </Text>
                    <StatementEntriesTable
                      entries={entries.data.models}
                      label={ENTRY_STATUS_LABELS[option]}
                      {...(option === 'unmatched'
                        ? { onDecide: (entry, decision) => setDeciding({ entry, decision }) }
                        : {})}
                    />
                    {pages > 1 ? (
                      <Group justify="center">
                        <Pagination total={pages} value={page} onChange={setPage} aria-label="Pages" />
                      </Group>
                    ) : null}
                  </Stack>
                )}
              </Tabs.Panel>
            ))}
          </Tabs>
        </section>
      </Stack>
      <DecideEntryModal deciding={deciding} onClose={() => setDeciding(null)} />
    </>
  );
}
