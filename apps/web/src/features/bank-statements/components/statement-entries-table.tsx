import type { BankStatementEntry } from '@back-office/contract/bank-statements';
import { Button, Group, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { entryAmountText, entryDateText, entryOutcomeText } from '../bank-statement-format.ts';
import type { EntryDecision } from './decide-entry-modal.tsx';

type StatementEntriesTableProps = {
  entries: BankStatementEntry[];
  /** The name of the table for assistive tools, e.g. "To review". */
  label: string;
  /** Given for the review queue: each entry offers Pay an invoice, Record as donation and Dismiss. */
  onDecide?: (entry: BankStatementEntry, decision: EntryDecision) => void;
};

/**
 * The entries of one status (docs/decisions/033): booking date `dd/mm/yyyy`, amount in French format
 * with its currency (`1 234,50 CHF`), the debtor's name and IBAN, the structured reference and the
 * remittance text; for the review queue the three decisions of each entry, otherwise what became of
 * it and who decided. The table scrolls sideways at 375 px, and its scrolling area takes the keyboard focus.
 */
export function StatementEntriesTable({ entries, label, onDecide }: StatementEntriesTableProps) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer
        minWidth={onDecide ? 1080 : 900}
        scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
      >
        <Table verticalSpacing="xs" horizontalSpacing="sm" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Booked</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Debtor</Table.Th>
              <Table.Th>Reference</Table.Th>
              <Table.Th>Text</Table.Th>
              {onDecide ? (
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              ) : (
                <Table.Th>Outcome</Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{entryDateText(entry)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {entryAmountText(entry)}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {entry.debtorName ?? '-'}
                  </Text>
                  {entry.debtorIban ? (
                    <Text size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                      {entry.debtorIban}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td ff="monospace" fz="xs" style={{ overflowWrap: 'anywhere' }}>
                  {entry.reference ?? ''}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.text}</Table.Td>
                {onDecide ? (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => onDecide(entry, 'payment')}>
                        Pay an invoice
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color="teal"
                        onClick={() => onDecide(entry, 'donation')}
                      >
                        Record as donation
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color="gray"
                        onClick={() => onDecide(entry, 'dismiss')}
                      >
                        Dismiss
                      </Button>
                    </Group>
                  </Table.Td>
                ) : (
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{entryOutcomeText(entry)}</Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
