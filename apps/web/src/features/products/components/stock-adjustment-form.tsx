import { type Product, stockAdjustmentInputSchema } from '@back-office/contract/products';
import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { schemaValidator } from '../../../lib/form.ts';
import { formatNumber } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useAdjustStock } from '../api/adjust-stock.ts';

/** `+5` or `−3` (a true minus sign), French digit grouping. */
export function signedQuantity(quantity: number): string {
  return quantity > 0 ? `+${formatNumber(quantity)}` : `−${formatNumber(-quantity)}`;
}

type StockAdjustmentValues = { quantity: number | string; reason: string };

type StockAdjustmentFormProps = {
  product: Product;
  onBusyChange: (busy: boolean) => void;
  /** After a saved adjustment, or Cancel. */
  onDone: () => void;
};

/**
 * The Adjust stock form of a product: a signed, non-zero quantity (positive adds items, negative
 * takes them out) and a required reason, checked by the contract's `stockAdjustmentInputSchema`.
 * It shows the stock it would leave. A quantity that would take the stock below 0 is refused by the
 * server (409) and its message ("Only 4 of ... in stock") shows under Quantity.
 */
export function StockAdjustmentForm({ product, onBusyChange, onDone }: StockAdjustmentFormProps) {
  const adjustStock = useAdjustStock();
  const form = useForm<StockAdjustmentValues>({
    initialValues: { quantity: '', reason: '' },
    validate: schemaValidator(stockAdjustmentInputSchema),
  });
  const quantity = typeof form.values.quantity === 'number' ? form.values.quantity : 0;
  const after = product.currentStock + quantity;

  const serverError = useServerErrorBanner();
  const handleSubmit = form.onSubmit(async (values) => {
    serverError.clear();
    const input = stockAdjustmentInputSchema.parse(values);
    onBusyChange(true);
    try {
      const movement = await adjustStock.mutateAsync({ productId: product.id, ...input });
      notifySuccess(
        `Stock of '${product.name}' adjusted by ${signedQuantity(movement.quantity)}: ${formatNumber(movement.stockAfter)} item(s) in stock.`,
      );
      onBusyChange(false);
      onDone();
    } catch (error) {
      onBusyChange(false);
      if (!serverError.show(error, form.setFieldError)) notifyError('adjusting the stock');
    }
  });

  return (
    <form
      ref={serverError.formRef}
      onSubmit={handleSubmit}
      noValidate
      aria-label={`Adjust the stock of ${product.name}`}
    >
      <Stack gap="md">
        <Text>
          {product.name}: {formatNumber(product.currentStock)} item(s) in stock now.
        </Text>
        <NumberInput
          label="Quantity"
          description="Items added (e.g. 20) or taken out (e.g. -3)"
          allowDecimal={false}
          data-autofocus
          {...form.getInputProps('quantity')}
        />
        <TextInput
          label="Reason"
          description="e.g. Livraison imprimeur, Inventaire, Casse"
          maxLength={500}
          autoComplete="off"
          {...form.getInputProps('reason')}
        />
        {serverError.banner}
        {quantity !== 0 ? (
          <Text size="sm" c={after < 0 ? 'red.9' : 'dimmed'} aria-live="polite">
            Stock after: {formatNumber(after)} item(s)
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={adjustStock.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={adjustStock.isPending}>
            Adjust stock
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
