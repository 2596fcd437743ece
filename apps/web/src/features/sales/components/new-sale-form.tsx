import type { Product } from '@back-office/contract/products';
import type { ReferenceItem } from '@back-office/contract/reference-lists';
import type { Subscriber } from '@back-office/contract/subscribers';
import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import { paths } from '../../../config/paths.ts';
import { productKeys } from '../../../entities/products/index.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateSale } from '../api/create-sale.ts';
import {
  activeCurrencySymbol,
  addSaleLine,
  buildCreateSaleInput,
  formFieldOfPayloadPath,
  initialNewSaleValues,
  type NewSaleValues,
  newSaleTotals,
  stockByProduct,
  validateNewSale,
} from '../new-sale-model.ts';
import { SaleInfoFields } from './sale-info-fields.tsx';
import { SaleLineAdder } from './sale-line-adder.tsx';
import { SaleLinesTable } from './sale-lines-table.tsx';

type NewSaleFormProps = {
  subscriber: Subscriber;
  countries: readonly ReferenceItem[];
  /** The buyer's currency symbol ('' when unknown). */
  currencySymbol: string;
  products: readonly Product[];
};

/** "{first} {last}" of the heading and the saved toast (§2.6, §8). */
function displayName(subscriber: Subscriber): string {
  return `${subscriber.firstName} ${subscriber.lastName}`.trim();
}

/** The server's 409 when a line asks for more items than the product holds now. */
function isInsufficientStock(error: ApiError): boolean {
  return error.status === 409 && error.code === 'products.insufficient_stock';
}

/**
 * The New Sale screen for one subscriber (part 2 §2.6, §4 New sale, §5 New sale, §8, §9): heading
 * "New Sale for {first} {last}" linking to the subscriber, the Sale Info panel, the line adder, the
 * lines with their footer of figures (all from the shared `computeSaleTotals`) and the stock each
 * product has, and Save with a spinner. A line over the stock is flagged and blocks Save; if the
 * server still finds too few items (sold meanwhile), its message shows and the stock is reloaded. Enter never submits. A sale is saved only when the form is valid and has a line; otherwise
 * nothing happens. After a save: the subscriber's Sales list and "The sale for '{name}' was saved
 * successfully". Leaving (a link, Back or Forward, closing the tab) with unsaved changes asks first.
 */
export function NewSaleForm({ subscriber, countries, currencySymbol, products }: NewSaleFormProps) {
  const navigate = useNavigate();
  const createSale = useCreateSale();
  const queryClient = useQueryClient();
  const stock = useMemo(() => stockByProduct(products), [products]);
  const form = useForm<NewSaleValues>({
    initialValues: initialNewSaleValues(subscriber, countries, currencySymbol),
    validate: (values) => validateNewSale(values, subscriber, countries, currencySymbol, stock),
  });
  const { values } = form;
  const symbol = activeCurrencySymbol(values.swissSale);
  const totals = newSaleTotals(values);
  const saleableProducts = useMemo(() => products.filter((product) => product.active), [products]);
  const name = displayName(subscriber);

  const serverError = useServerErrorBanner();
  const guard = useUnsavedChangesGuard(form.isDirty() || createSale.isPending);
  // A line's error other than its quantity shows under its product name, which is text, not a field.
  const isLineNameError = (field: string | null) => field?.endsWith('.productName') ?? false;
  const fieldOfPayloadPath = (path: string) => {
    const field = formFieldOfPayloadPath(path);
    return field === 'lines' || isLineNameError(field) ? null : field;
  };
  const showServerFieldErrors = (error: unknown): boolean => {
    if (!(error instanceof ApiError) || (error.status !== 400 && !isInsufficientStock(error))) return false;
    let shown = false;
    for (const { path, message } of error.errors) {
      const field = formFieldOfPayloadPath(path);
      if (field && isLineNameError(field)) {
        form.setFieldError(field, message);
        shown = true;
      }
    }
    return serverError.show(error, form.setFieldError, fieldOfPayloadPath) || shown;
  };

  const handleSave = async () => {
    if (createSale.isPending) return;
    // §5: "saved only if the form is valid and has at least one item line; otherwise nothing happens".
    if (values.lines.length === 0) return;
    if (form.validate().hasErrors) return;
    serverError.clear();
    try {
      await createSale.mutateAsync(buildCreateSaleInput(values, subscriber, countries, currencySymbol));
    } catch (error) {
      const shown = showServerFieldErrors(error);
      if (error instanceof ApiError && isInsufficientStock(error)) {
        // Someone sold or took items meanwhile: say what is left, and show the stock as it is now.
        notifyError('saving the sale', error.detail);
        void queryClient.invalidateQueries({ queryKey: productKeys.all });
      } else if (!shown) {
        notifyError('saving the sale');
      }
      return;
    }
    notifySuccess(`The sale for '${name}' was saved successfully`);
    guard.allowNextNavigation();
    void navigate(
      paths.sales.href({
        subid: subscriber.id,
        fn: subscriber.firstName,
        ln: subscriber.lastName,
        sy: currencySymbol,
      }),
    );
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    // §2.6: "Enter does not submit".
    event.preventDefault();
  };

  const info = [subscriber.association, [subscriber.postcode, subscriber.town].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(' · ');

  return (
    <form ref={serverError.formRef} aria-label="New sale" onSubmit={handleSubmit} noValidate>
      <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap">
        <Stack gap={4}>
          <Title order={1} size="h2">
            New Sale for{' '}
            <Anchor component={Link} to={paths.subscriber.href(subscriber.id)} inherit>
              {name}
            </Anchor>
          </Title>
          <Text c="dimmed" size="sm">
            {info ? `${info} · ` : ''}
            {currencySymbol ? `Currency: ${currencySymbol}` : 'No currency'}
          </Text>
        </Stack>
      </Group>

      <SaleInfoFields form={form} countries={countries} />

      <Paper withBorder radius="md" p="md" mb="md">
        <SaleLineAdder
          products={saleableProducts}
          onAdd={(product, quantity) =>
            form.setFieldValue('lines', addSaleLine(form.getValues().lines, product, quantity))
          }
        />
      </Paper>

      <SaleLinesTable form={form} totals={totals} symbol={symbol} stock={stock} />

      {serverError.banner}
      {guard.dialog}

      <Group justify="flex-end" mt="lg">
        <Button
          type="button"
          size="md"
          leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          loading={createSale.isPending}
          onClick={() => void handleSave()}
        >
          Save
        </Button>
      </Group>
    </form>
  );
}
