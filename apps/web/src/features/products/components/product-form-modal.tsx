import { NEW_PRODUCT, type Product, saveProductInputSchema } from '@back-office/contract/products';
import { Button, Group, NumberInput, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateProduct } from '../api/create-product.ts';
import { useUpdateProduct } from '../api/update-product.ts';

/** Part 1 §2 Products: the Active? switch's hints, on and off. */
export const ACTIVE_HINT = '(Yes - product is active)';
export const INACTIVE_HINT = '(No - product is NOT active)';

/** Why an edit was refused when someone else saved the product after the dialog opened. */
export const STALE_PRODUCT_REASON =
  'Someone else changed this product after you opened it. Close the dialog, open it again and make your changes once more.';

/** Number fields hold `''` while empty, so that "required" can be told apart from 0. */
type ProductFormValues = {
  name: string;
  euroPrice: number | string;
  swissPrice: number | string;
  active: boolean;
  currentStock: number | string;
  minStockAlert: number | string;
};

/** An edit validates the catalogue fields only: the stock is not part of it. */
const editProductSchema = saveProductInputSchema.omit({ currentStock: true });

type ProductFormModalProps = {
  opened: boolean;
  /** The product being edited, or null to add a new one. */
  product: Product | null;
  onClose: () => void;
};

/**
 * The Add New Product / Edit Product dialog (part 1 §2 Products, §4 Modal and product defaults,
 * §5 Product form, §8 messages): Name, Euros Price (€), Swiss Price (CHF), Current Stock (only when
 * adding: the initial stock; afterwards the stock moves only through adjustments and sales), Minimum
 * Stock Level and the Active? switch with its hint; Save when adding, Update when editing. An edit
 * sends the version it was opened at: if someone saved the product since, the server refuses (409)
 * and the dialog says so. Static backdrop. It stays open with a busy button until the server answers
 * and shows the server's field errors under their fields.
 */
export function ProductFormModal({ opened, product, onClose }: ProductFormModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened={opened}
      title={product ? 'Edit Product' : 'Add New Product'}
      busy={busy}
      size="lg"
      onClose={onClose}
    >
      <ProductForm key={product?.id ?? 'new'} product={product} onDone={onClose} onBusyChange={setBusy} />
    </FormModal>
  );
}

type ProductFormProps = {
  product: Product | null;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
};

function ProductForm({ product, onDone, onBusyChange }: ProductFormProps) {
  const createProduct = useCreateProduct();
  const updateProduct = useUpdateProduct();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const initial = product ?? NEW_PRODUCT;
  const form = useForm<ProductFormValues>({
    initialValues: {
      name: initial.name,
      euroPrice: initial.euroPrice,
      swissPrice: initial.swissPrice,
      active: initial.active,
      currentStock: initial.currentStock,
      minStockAlert: initial.minStockAlert,
    },
    validate: schemaValidator(product ? editProductSchema : saveProductInputSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const pending = createProduct.isPending || updateProduct.isPending;

  const serverError = useServerErrorBanner();
  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      onBusyChange(true);
      try {
        if (product) {
          const input = editProductSchema.parse(values);
          const saved = await updateProduct.mutateAsync({
            ...input,
            id: product.id,
            version: product.version,
          });
          notifySuccess(`Product '${saved.name}' was updated successfully!`);
        } else {
          const saved = await createProduct.mutateAsync(saveProductInputSchema.parse(values));
          notifySuccess(`Product '${saved.name}' was created successfully!`);
        }
        onBusyChange(false);
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (error instanceof ApiError && error.code === 'products.stale') {
          notifyError('updating a product', STALE_PRODUCT_REASON);
        } else if (!serverError.show(error, form.setFieldError)) {
          notifyError(product ? 'updating a product' : 'creating a product');
        }
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <TextInput label="Name" autoComplete="off" data-autofocus {...form.getInputProps('name')} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <CurrencyInput label="Euros Price" prefix="€" {...form.getInputProps('euroPrice')} />
          <CurrencyInput label="Swiss Price" prefix="CHF" {...form.getInputProps('swissPrice')} />
          {product ? null : (
            <NumberInput
              label="Current Stock"
              description="Later changes: Stock, then Adjust stock"
              allowDecimal={false}
              allowNegative={false}
              min={0}
              {...form.getInputProps('currentStock')}
            />
          )}
          <NumberInput
            label="Minimum Stock Level"
            allowDecimal={false}
            allowNegative={false}
            min={0}
            {...form.getInputProps('minStockAlert')}
          />
        </SimpleGrid>
        <Switch
          label="Active?"
          description={form.values.active ? ACTIVE_HINT : INACTIVE_HINT}
          {...form.getInputProps('active', { type: 'checkbox' })}
        />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {product ? 'Update' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
