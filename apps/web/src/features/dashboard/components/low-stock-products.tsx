import type { LowStock } from '@back-office/contract/dashboard';
import { Center, Loader, Paper, Table, Text, Title } from '@mantine/core';
import { formatNumber } from '../../../lib/format.ts';

const UNAVAILABLE_MESSAGE = 'This information is not available right now.';

/** Part 1 §2 Dashboard: the text of an empty Low Stock Products table. */
export const NO_LOW_STOCK_MESSAGE = 'No products currently low in stock.';

type LowStockProductsProps = {
  /** Undefined while the first load is under way, or when it failed. */
  data: LowStock | undefined;
  /** The first load failed (the error toast says so); nothing to show. */
  failed: boolean;
};

/**
 * The Low Stock Products table of the dashboard (part 1 §2 Dashboard): columns Product and Current
 * Stock; "No products currently low in stock." when the loaded list is empty.
 */
export function LowStockProducts({ data, failed }: LowStockProductsProps) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="low-stock-title">
      <Title order={2} size="h4" mb="sm" id="low-stock-title">
        Low Stock Products
      </Title>
      {data === undefined && failed ? (
        <Text c="dimmed" ta="center" py="sm">
          {UNAVAILABLE_MESSAGE}
        </Text>
      ) : data === undefined ? (
        <Center py="lg">
          <Loader size="sm" aria-label="Loading low stock products" />
        </Center>
      ) : (
        <Table striped verticalSpacing="xs" aria-labelledby="low-stock-title">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Product</Table.Th>
              <Table.Th w={140} ta="right">
                Current Stock
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.keyedData.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={2}>
                  <Text c="dimmed" ta="center" py="sm">
                    {NO_LOW_STOCK_MESSAGE}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              data.keyedData.map((item, index) => (
                // Product names may repeat, and these rows hold no state: the position is a fine key.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <Table.Tr key={`${item.key}-${index}`}>
                  <Table.Td>{item.key}</Table.Td>
                  <Table.Td ta="right">{formatNumber(item.value)}</Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
