import { Button, Group, NumberInput, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import {
  freeLine,
  lineUnitPrice,
  type NewSaleValues,
  type newSaleTotals,
  stockShortfalls,
} from '../new-sale-model.ts';

/** §2.6: the message instead of the lines table while there is no line. */
export const NO_LINES_MESSAGE = 'Please add some product lines.';

/** An amount in the active currency, e.g. `1 234,50 €` (§9: French locale, 2 decimals). */
export function moneyWithSymbol(value: number, symbol: string): string {
  return `${formatMoney(value)} ${symbol}`;
}

/** The TOTAL as §2.6 shows it: "TOTAL with currency in brackets", e.g. `1 234,50 (€)`. */
export function totalWithSymbol(value: number, symbol: string): string {
  return `${formatMoney(value)} (${symbol})`;
}

type SaleLinesTableProps = {
  form: UseFormReturnType<NewSaleValues>;
  /** The figures of `newSaleTotals(form.values)` (the shared `computeSaleTotals`). */
  totals: ReturnType<typeof newSaleTotals>;
  /** The active currency (CHF for a Swiss sale, € otherwise). */
  symbol: string;
  /** Each product's stock as last loaded, by product id. */
  stock: ReadonlyMap<number, number>;
};

/**
 * The lines of the New Sale screen and their footer (part 2 §2.6, §9): product name, Unit Price (the
 * euro price, or the Swiss price for a Swiss sale), Quantity, In stock (what the product holds, in red
 * with "Only N in stock." when the lines of that product ask for more), Sub-Total of the line, Remove and Free
 * (both prices to 0); then Sub-Total, Remise %, Remise amount, Frais/livraison and Dons (the shared
 * currency input without prefix) and TOTAL. "Please add some product lines." while there is no line.
 */
export function SaleLinesTable({ form, totals, symbol, stock }: SaleLinesTableProps) {
  const { lines, swissSale } = form.values;
  if (lines.length === 0) return <EmptyState message={NO_LINES_MESSAGE} />;
  const shortfalls = stockShortfalls(lines, stock);

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={890} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
        <Table verticalSpacing="xs" horizontalSpacing="md" aria-label="Sale lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Product</Table.Th>
              <Table.Th w={150} ta="right">
                Unit Price
              </Table.Th>
              <Table.Th w={130}>Quantity</Table.Th>
              <Table.Th w={130} ta="right">
                In stock
              </Table.Th>
              <Table.Th w={170} ta="right">
                Sub-Total
              </Table.Th>
              <Table.Th w={170}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((line, index) => {
              const free = line.euroUnitPrice === 0 && line.swissUnitPrice === 0;
              return (
                <Table.Tr key={line.key}>
                  <Table.Td>
                    <Text fw={500}>{line.productName}</Text>
                    {form.errors[`lines.${index}.productName`] ? (
                      <Text c="red.9" size="xs">
                        {form.errors[`lines.${index}.productName`]}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {moneyWithSymbol(lineUnitPrice(line, swissSale), symbol)}
                  </Table.Td>
                  <Table.Td>
                    <NumberInput
                      aria-label={`Quantity of ${line.productName}`}
                      size="xs"
                      allowDecimal={false}
                      allowNegative={false}
                      min={1}
                      max={1_000_000}
                      {...form.getInputProps(`lines.${index}.quantity`)}
                    />
                  </Table.Td>
                  <Table.Td ta="right">
                    <StockCell available={stock.get(line.productId)} shortfall={shortfalls.get(index)} />
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {moneyWithSymbol(totals.lineTotals[index] ?? 0, symbol)}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        aria-label={`Remove ${line.productName}`}
                        onClick={() => form.removeListItem('lines', index)}
                      >
                        Remove
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        aria-label={`Free ${line.productName}`}
                        disabled={free}
                        onClick={() => form.replaceListItem('lines', index, freeLine(line))}
                      >
                        Free
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          <Table.Tfoot>
            <FigureRow label="Sub-Total">
              <Text ta="right" aria-label="Sub-Total amount">
                {moneyWithSymbol(totals.subTotal, symbol)}
              </Text>
            </FigureRow>
            <FigureRow label="Remise %">
              <NumberInput
                aria-label="Remise %"
                size="xs"
                decimalSeparator=","
                allowedDecimalSeparators={[',', '.']}
                decimalScale={3}
                allowNegative={false}
                min={0}
                max={100}
                clampBehavior="strict"
                hideControls
                selectAllOnFocus
                {...form.getInputProps('discountPercentage')}
              />
            </FigureRow>
            <FigureRow label="Remise">
              <Text ta="right" aria-label="Remise amount">
                {totals.discount > 0 ? '- ' : ''}
                {moneyWithSymbol(totals.discount, symbol)}
              </Text>
            </FigureRow>
            <FigureRow label="Frais/livraison">
              <CurrencyInput
                aria-label="Frais/livraison"
                size="xs"
                prefix=""
                {...form.getInputProps('deliveryCharge')}
              />
            </FigureRow>
            <FigureRow label="Dons">
              <CurrencyInput aria-label="Dons" size="xs" prefix="" {...form.getInputProps('donation')} />
            </FigureRow>
            <FigureRow label="TOTAL" strong>
              <Text ta="right" fw={700} size="lg" aria-label="TOTAL amount" style={{ whiteSpace: 'nowrap' }}>
                {totalWithSymbol(totals.total, symbol)}
              </Text>
            </FigureRow>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function FigureRow({
  label,
  strong = false,
  children,
}: {
  label: string;
  strong?: boolean;
  children: ReactNode;
}) {
  return (
    <Table.Tr>
      <Table.Td colSpan={4} ta="right">
        <Text fw={strong ? 700 : 500} size={strong ? 'lg' : 'sm'}>
          {label}
        </Text>
      </Table.Td>
      <Table.Td>{children}</Table.Td>
      <Table.Td />
    </Table.Tr>
  );
}

/** What the product of a line holds; in red, with the reason, when the lines ask for more. */
function StockCell({
  available,
  shortfall,
}: {
  available: number | undefined;
  shortfall: string | undefined;
}) {
  if (available === undefined) return <Text c="dimmed">–</Text>;
  return (
    <>
      <Text c={shortfall ? 'red.9' : undefined} fw={shortfall ? 600 : undefined}>
        {formatNumber(available)}
      </Text>
      {shortfall ? (
        <Text c="red.8" size="xs">
          {shortfall}
        </Text>
      ) : null}
    </>
  );
}
