import type { CollectionSummary } from '@back-office/contract/collections';
import { Anchor, Badge, Paper, Table } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { frenchDay } from '../../../lib/french-date.ts';
import { COLLECTION_STATUS_BADGES, formatEuros } from '../collection-format.ts';

/**
 * The history of collections, newest due date first: the due date (`dd/mm/yyyy`, a link that opens
 * the collection), the number of debits, their total in euros the French way (`1 234,50 €`) and the
 * status. Narrow enough for a phone; it scrolls sideways inside its frame otherwise.
 */
export function CollectionsTable({ collections }: { collections: CollectionSummary[] }) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={340} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
        <Table verticalSpacing="xs" horizontalSpacing="xs" aria-label="Collections" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Due date</Table.Th>
              <Table.Th ta="right">Debits</Table.Th>
              <Table.Th ta="right">Total</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {collections.map((collection) => {
              const badge = COLLECTION_STATUS_BADGES[collection.status];
              return (
                <Table.Tr key={collection.id}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={paths.collection.href(collection.id)}
                      fw={500}
                      aria-label={`Collection of ${frenchDay(collection.dueDate)}`}
                    >
                      {frenchDay(collection.dueDate)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{formatNumber(collection.count)}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatEuros(collection.total)}
                  </Table.Td>
                  <Table.Td>
                    {/* Never cut short ("SETT…"): the table scrolls sideways instead. */}
                    <Badge
                      color={badge.color}
                      variant="dot"
                      style={{ overflow: 'visible', minWidth: 'max-content' }}
                    >
                      {badge.label}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
