import type { CollectionLine } from '@back-office/contract/collections';
import { Anchor, Badge, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { ConfirmDelete } from '../../../components/confirm-delete.tsx';
import { paths } from '../../../config/paths.ts';
import { formatEuros, LINE_STATUS_BADGES, reasonText, SEQUENCE_TYPE_LABELS } from '../collection-format.ts';

type CollectionLinesTableProps = {
  lines: CollectionLine[];
  /** True on a draft: each pending line can be removed (after a confirmation). */
  removable: boolean;
  /** Removes the line; resolves true when the server removed it. */
  onRemove: (line: CollectionLine) => Promise<boolean>;
};

/**
 * The lines of a collection: the debtor (a link to the subscriber), the mandate's RUM, the line's
 * reference in the file and the bank's return files (EndToEndId `C<collection>-P<plan>-<YYYYMMDD>`), the IBAN masked
 * but for its last 4 characters (`•••• 0189`), the amount in euros (`25,00 €`), the sequence type
 * (FRST, RCUR, OOFF; its meaning in the title) and the status, with the bank's reason code in words
 * for a returned or rejected line; on a draft, Remove for each pending line. Removed lines stay listed,
 * dimmed. The table scrolls sideways at 375 px, and its scrolling area takes the keyboard focus.
 */
export function CollectionLinesTable({ lines, removable, onRemove }: CollectionLinesTableProps) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={960} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
        <Table verticalSpacing="xs" horizontalSpacing="sm" aria-label="Lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Debtor</Table.Th>
              <Table.Th>RUM</Table.Th>
              <Table.Th>Reference</Table.Th>
              <Table.Th>IBAN</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Status</Table.Th>
              {removable ? (
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((line) => {
              const badge = LINE_STATUS_BADGES[line.status];
              const removed = line.status === 'removed';
              return (
                <Table.Tr key={line.id} c={removed ? 'dimmed' : undefined}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.subscriber.href(line.subscriberId)} fw={500}>
                      {line.subscriberName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{line.rum}</Table.Td>
                  <Table.Td ff="monospace" fz="xs" style={{ whiteSpace: 'nowrap' }}>
                    {line.endToEndId}
                  </Table.Td>
                  <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                    {line.iban}
                  </Table.Td>
                  <Table.Td
                    ta="right"
                    style={{ whiteSpace: 'nowrap' }}
                    td={removed ? 'line-through' : undefined}
                  >
                    {formatEuros(line.amount)}
                  </Table.Td>
                  <Table.Td>
                    <abbr title={SEQUENCE_TYPE_LABELS[line.sequenceType]}>{line.sequenceType}</abbr>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={badge.color} variant="dot" style={{ overflow: 'visible' }}>
                      {badge.label}
                    </Badge>
                    {line.reasonCode ? (
                      <Text size="xs" mt={2}>
                        {reasonText(line.reasonCode)}
                      </Text>
                    ) : null}
                  </Table.Td>
                  {removable ? (
                    <Table.Td>
                      {line.status === 'pending' ? <ConfirmDelete onConfirm={() => onRemove(line)} /> : null}
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
