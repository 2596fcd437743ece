import type { OverdueInvoices } from '@back-office/contract/dashboard';
import { Anchor, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';

const UNAVAILABLE_MESSAGE = 'This information is not available right now.';

/** The sales screen searching the overdue invoices (its address carries the search, docs/decisions/032). */
export const OVERDUE_SALES_HREF = `${paths.sales.href()}?paymentStatus=overdue`;

type OverdueInvoicesCardProps = {
  /** Undefined while the first load is under way, or when it failed. */
  data: OverdueInvoices | undefined;
  /** The first load failed (the error toast says so); nothing to show. */
  failed: boolean;
};

/**
 * The Overdue invoices card of the dashboard (not in the spec; docs/decisions/032): how many issued
 * invoices are past their due date and not paid in full, what remains to pay on them per currency in
 * French format (`1 234,50 €`), and a link to the sales screen searching them.
 */
export function OverdueInvoicesCard({ data, failed }: OverdueInvoicesCardProps) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="overdue-invoices-title">
      <Title order={2} size="h4" mb="sm" id="overdue-invoices-title">
        Overdue invoices
      </Title>
      {data === undefined && failed ? (
        <Text c="dimmed" ta="center" py="sm">
          {UNAVAILABLE_MESSAGE}
        </Text>
      ) : data === undefined ? (
        <Center py="lg">
          <Loader size="sm" aria-label="Loading overdue invoices" />
        </Center>
      ) : (
        <Stack gap="xs">
          <Text size="xl" fw={700} aria-label="Number of overdue invoices">
            {formatNumber(data.count)}
          </Text>
          {data.amounts.length > 0 ? (
            <Group
              gap="md"
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label="Overdue amounts"
            >
              {data.amounts.map((item) => (
                <Text component="li" key={item.currencySymbol} size="sm">
                  {formatMoney(item.amount)} {item.currencySymbol}
                </Text>
              ))}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              No invoice is overdue.
            </Text>
          )}
          <Anchor component={Link} to={OVERDUE_SALES_HREF} size="sm">
            See the overdue invoices
          </Anchor>
        </Stack>
      )}
    </Paper>
  );
}
