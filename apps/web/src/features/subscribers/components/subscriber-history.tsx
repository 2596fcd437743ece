import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { subscriberQueryOptions } from '../api/get-subscriber.ts';
import { useSubscriberHistory } from '../api/get-subscriber-history.ts';
import { subscriberFullName } from '../subscriber-form-values.ts';

/** §2.3 texts. */
export const NO_HISTORY_MESSAGE = 'No history currently exists.';

type SubscriberHistoryProps = {
  id: number;
  /** First and last name when the link that opened the screen carried them (`fn`, `ln`). */
  name?: string | undefined;
};

/**
 * The history of a subscriber (part 2 §2.3, §8): title "History for {name}" linking back to the
 * subscriber, then Date (YYYY-MM-DD HH:mm), User and Description, newest first; "Loading..." while it
 * loads, "No history currently exists." when empty; "getting the history" on failure.
 */
export function SubscriberHistory({ id, name }: SubscriberHistoryProps) {
  const history = useSubscriberHistory(id);
  const subscriber = useQuery({ ...subscriberQueryOptions(id), enabled: !name });
  const shownName = name ?? (subscriber.data ? subscriberFullName(subscriber.data) : `subscriber ${id}`);

  useEffect(() => {
    if (history.isError) notifyError('getting the history');
  }, [history.isError]);

  return (
    <>
      <Title order={1} size="h2" mb="lg">
        History for{' '}
        <Anchor component={Link} to={paths.subscriber.href(id)} inherit>
          {shownName}
        </Anchor>
      </Title>
      {history.isPending ? <Text c="dimmed">Loading...</Text> : null}
      {history.data && history.data.length === 0 ? <EmptyState message={NO_HISTORY_MESSAGE} /> : null}
      {history.data && history.data.length > 0 ? (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" horizontalSpacing="md" striped aria-label="History">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={170}>Date</Table.Th>
                  <Table.Th w={200}>User</Table.Th>
                  <Table.Th>Description</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.map((entry, index) => (
                  // Entries have no id; their order (newest first) is stable.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  <Table.Tr key={index}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.date)}</Table.Td>
                    <Table.Td>{entry.user}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{entry.description}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : null}
    </>
  );
}
