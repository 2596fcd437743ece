import '@mantine/charts/styles.css';
import type { SubscribersByCountry } from '@back-office/contract/dashboard';
import { BarChart } from '@mantine/charts';
import { Center, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { formatNumber } from '../../../lib/format.ts';

const UNAVAILABLE_MESSAGE = 'This information is not available right now.';

/** Shown instead of the chart while no subscriber is active (the spec is silent on this case). */
export const NO_ACTIVE_SUBSCRIBERS_MESSAGE = 'No active subscribers yet.';

/** Room right of the plot for the value label of the longest bar. */
const VALUE_LABEL_ROOM = 48;

/** Height of one bar's band, so that many countries stay readable. */
const BAND_HEIGHT = 40;

type ActiveSubscribersChartProps = {
  /** Undefined while the first load is under way, or when it failed. */
  data: SubscribersByCountry | undefined;
  /** The first load failed (the error toast says so); nothing to show. */
  failed: boolean;
};

/** The total of the chart in French format, e.g. "1 234" (part 1 §2 Dashboard, §9). */
export function activeSubscribersTotal(data: SubscribersByCountry): string {
  return formatNumber(data.data.reduce((sum, value) => sum + value, 0));
}

/**
 * The Active Subscribers chart of the dashboard (part 1 §2 Dashboard, §9): horizontal blue bars, one
 * per label, the value axis from zero, no legend, numbers and the total in French format.
 */
export function ActiveSubscribersChart({ data, failed }: ActiveSubscribersChartProps) {
  const rows = data
    ? data.labels.map((label, index) => ({ country: label, count: data.data[index] ?? 0 }))
    : [];

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby="active-subscribers-title"
      // The bar's tooltip must not widen a phone's page: it stays inside the card.
      style={{ overflow: 'hidden' }}
    >
      <Group justify="space-between" align="baseline" mb="sm">
        <Title order={2} size="h4" id="active-subscribers-title">
          Active Subscribers
        </Title>
        {data ? (
          <Text fw={500} aria-label="Total active subscribers">
            Total: {activeSubscribersTotal(data)}
          </Text>
        ) : null}
      </Group>
      {data === undefined && failed ? (
        <Text c="dimmed" ta="center" py="sm">
          {UNAVAILABLE_MESSAGE}
        </Text>
      ) : data === undefined ? (
        <Center py="lg">
          <Loader size="sm" aria-label="Loading active subscribers" />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="sm">
          {NO_ACTIVE_SUBSCRIBERS_MESSAGE}
        </Text>
      ) : (
        <BarChart
          h={rows.length * BAND_HEIGHT + 40}
          data={rows}
          dataKey="country"
          orientation="vertical"
          series={[{ name: 'count', label: 'Active subscribers', color: 'blue.6' }]}
          valueFormatter={formatNumber}
          withLegend={false}
          withBarValueLabel
          gridAxis="x"
          maxBarWidth={24}
          xAxisProps={{ domain: [0, 'auto'], allowDecimals: false }}
          barChartProps={{ margin: { right: VALUE_LABEL_ROOM } }}
          yAxisProps={{ width: 140, interval: 0 }}
        />
      )}
    </Paper>
  );
}
