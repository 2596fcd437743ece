import type { Product, StockMovement, StockMovementKind } from '@back-office/contract/products';
import { Button, Center, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { useProducts } from '../../../entities/products/index.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useStockMovements } from '../api/get-stock-movements.ts';
import { StockAdjustmentForm, signedQuantity } from './stock-adjustment-form.tsx';

/** Rows per page of the movements table. */
export const MOVEMENTS_PAGE_LENGTH = 20;

const KIND_LABELS: Record<StockMovementKind, string> = {
  sale: 'Sale',
  saleCancelled: 'Sale cancelled',
  adjustment: 'Adjustment',
  import: 'Import',
};

/** What a movement was: "Sale #12", "Sale cancelled #12", "Adjustment", "Import". */
export function movementLabel(movement: StockMovement): string {
  const label = KIND_LABELS[movement.kind];
  return movement.saleId ? `${label} #${movement.saleId}` : label;
}

type StockMovementsModalProps = {
  opened: boolean;
  /** The product whose stock is shown; kept while the dialog fades out. */
  product: Product | null;
  onClose: () => void;
};

/**
 * The Stock dialog of a product: how many items it holds now, its stock movements newest first
 * (when, what: sale with its id, cancelled sale, adjustment or import, the signed quantity, the stock
 * after, the reason and who), 20 per page, and "Adjust stock", which turns the dialog into the
 * adjustment form until it is saved or cancelled.
 */
export function StockMovementsModal({ opened, product, onClose }: StockMovementsModalProps) {
  const [adjusting, setAdjusting] = useState(false);
  const [busy, setBusy] = useState(false);
  const products = useProducts();
  // The list is refreshed after each adjustment: show its figures rather than the ones at opening.
  const current = products.data?.find((item) => item.id === product?.id) ?? product;

  useEffect(() => {
    if (opened) setAdjusting(false);
  }, [opened]);

  return (
    <FormModal
      opened={opened}
      title={current ? `${adjusting ? 'Adjust stock' : 'Stock'}: ${current.name}` : 'Stock'}
      busy={busy}
      size="lg"
      onClose={onClose}
    >
      {current && adjusting ? (
        <StockAdjustmentForm product={current} onBusyChange={setBusy} onDone={() => setAdjusting(false)} />
      ) : current ? (
        <MovementsView product={current} onAdjust={() => setAdjusting(true)} />
      ) : null}
    </FormModal>
  );
}

function MovementsView({ product, onAdjust }: { product: Product; onAdjust: () => void }) {
  const [listfrom, setListfrom] = useState(1);
  const movements = useStockMovements(product.id, { listfrom, listlength: MOVEMENTS_PAGE_LENGTH });

  useEffect(() => {
    if (movements.isError) notifyError('getting the stock movements');
  }, [movements.isError]);

  const count = movements.data?.count ?? 0;
  const last = Math.min(listfrom + MOVEMENTS_PAGE_LENGTH - 1, count);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Text fw={500}>{formatNumber(product.currentStock)} item(s) in stock</Text>
        <Button leftSection={<IconAdjustments size={16} aria-hidden />} onClick={onAdjust}>
          Adjust stock
        </Button>
      </Group>
      {movements.isPending ? (
        <Center py="md">
          <Loader aria-label="Loading stock movements" />
        </Center>
      ) : movements.isError ? null : count === 0 ? (
        <EmptyState message="No stock movements yet." />
      ) : (
        <>
          <Table.ScrollContainer minWidth={560} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
            <Table verticalSpacing="xs" aria-label="Stock movements">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Movement</Table.Th>
                  <Table.Th ta="right">Quantity</Table.Th>
                  <Table.Th ta="right">Stock after</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th>By</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {movements.data.models.map((movement) => (
                  <Table.Tr key={movement.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(movement.at)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{movementLabel(movement)}</Table.Td>
                    <Table.Td ta="right" c={movement.quantity < 0 ? 'red.9' : undefined}>
                      {signedQuantity(movement.quantity)}
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(movement.stockAfter)}</Table.Td>
                    <Table.Td>{movement.reason ?? ''}</Table.Td>
                    <Table.Td>{movement.userName}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed">
              {formatNumber(listfrom)}–{formatNumber(last)} of {formatNumber(count)}
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                disabled={listfrom === 1}
                onClick={() => setListfrom(Math.max(1, listfrom - MOVEMENTS_PAGE_LENGTH))}
              >
                Newer
              </Button>
              <Button
                size="xs"
                variant="default"
                disabled={last >= count}
                onClick={() => setListfrom(listfrom + MOVEMENTS_PAGE_LENGTH)}
              >
                Older
              </Button>
            </Group>
          </Group>
        </>
      )}
    </Stack>
  );
}
