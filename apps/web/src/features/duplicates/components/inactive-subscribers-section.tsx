import {
  Alert,
  Anchor,
  Group,
  Loader,
  Pagination,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { DATE_FIELD_FORMAT } from '../../../components/date-field.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { INACTIVE_PAGE_SIZE, useInactiveSubscribers } from '../api/get-inactive-subscribers.ts';

/**
 * Inactive subscribers (GDPR art. 5(1)(e), storage limitation), under the duplicates: those whose last
 * activity (record change, donation or sale) is older than the settings' period, oldest first, 50 a
 * page, each name opening its record in a new tab, so that staff can decide whether to anonymise them.
 */
export function InactiveSubscribersSection() {
  const [page, setPage] = useState(1);
  const inactive = useInactiveSubscribers(page);
  const data = inactive.data;
  const pages = data ? Math.max(1, Math.ceil(data.count / INACTIVE_PAGE_SIZE)) : 1;

  useEffect(() => {
    if (inactive.isError) notifyError('getting the inactive subscribers');
  }, [inactive.isError]);

  return (
    <Stack gap="md" mt="xl" component="section" aria-labelledby="inactive-subscribers-title">
      <Title order={2} size="h3" id="inactive-subscribers-title">
        Inactive subscribers
      </Title>
      <Text size="sm" aria-live="polite">
        {data
          ? `Subscribers whose record, donations and sales have not changed for ${data.years} ${data.years === 1 ? 'year' : 'years'} (set in Settings), oldest first: ${formatNumber(data.count)}. Check whether you still need their data, else anonymise them.`
          : ''}
      </Text>
      {inactive.isError && !data ? (
        <Alert color="red" variant="light" title="The inactive subscribers could not be loaded">
          <Text size="sm">Please try again or contact your system administrator.</Text>
        </Alert>
      ) : !data ? (
        <Loader aria-label="Loading the inactive subscribers" />
      ) : data.models.length === 0 ? (
        <EmptyState message="No inactive subscribers." />
      ) : (
        <>
          <Table.ScrollContainer minWidth={560}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-label="Inactive subscribers">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Subscriber</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Last activity</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.models.map((subscriber) => (
                  <Table.Tr key={subscriber.id}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={paths.subscriber.href(subscriber.id)}
                        target="_blank"
                        rel="noopener noreferrer"
                        size="sm"
                      >
                        {subscriber.name} (no. {subscriber.id}){' '}
                        <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{subscriber.email}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {dayjs(subscriber.lastActivity).format(DATE_FIELD_FORMAT)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 ? (
            <Group>
              <nav aria-label="Pages of the inactive subscribers">
                <Pagination
                  total={pages}
                  value={page}
                  onChange={setPage}
                  size="sm"
                  getControlProps={(control) => ({
                    'aria-label':
                      control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control,
                  })}
                />
              </nav>
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}
