import type { Product } from '@back-office/contract/products';
import { NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { DateField } from '../../../components/date-field.tsx';
import type { SalesFilters } from '../sales-filters.ts';
import {
  ANY_PAYMENT_STATUS,
  PAYMENT_STATUS_OPTIONS,
  paymentStatusFromOption,
} from './payment-status-badge.tsx';

/** §2.5 Product dropdown: "first option ** Optional **, then products". */
export const OPTIONAL_PRODUCT_LABEL = '** Optional **';
const NO_PRODUCT = '0';

type SalesSearchFieldsProps = {
  values: SalesFilters;
  onChange: (values: SalesFilters) => void;
  /** False in a subscriber's list: Last Name, Postcode and the dates are not shown (§2.5). */
  withSubscriberFields: boolean;
  products: readonly Product[];
};

/**
 * The fields of the Sales search panel (part 2 §2.5): without a subscriber Last Name, Postcode,
 * Added Before and Added After (French dd/mm/yyyy date fields, weeks from Monday, sent as YYYY-MM-DD); always
 * Product, Sales Reference, Total greater than, Total less than and Payment status (any, unpaid, partially
 * paid, paid, overdue: not in the spec; docs/decisions/032). None is required.
 */
export function SalesSearchFields({
  values,
  onChange,
  withSubscriberFields,
  products,
}: SalesSearchFieldsProps) {
  const set = <K extends keyof SalesFilters>(field: K, value: SalesFilters[K]) =>
    onChange({ ...values, [field]: value });
  const productOptions = [
    { value: NO_PRODUCT, label: OPTIONAL_PRODUCT_LABEL },
    ...products.map((product) => ({ value: String(product.id), label: product.name })),
  ];

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      {withSubscriberFields ? (
        <>
          <TextInput
            label="Last Name"
            autoComplete="off"
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
          />
          <TextInput
            label="Postcode"
            autoComplete="off"
            value={values.postCode}
            onChange={(event) => set('postCode', event.currentTarget.value)}
          />
          <DateField
            label="Added Before"
            value={values.addedBefore}
            onChange={(value) => set('addedBefore', value)}
          />
          <DateField
            label="Added After"
            value={values.addedAfter}
            onChange={(value) => set('addedAfter', value)}
          />
        </>
      ) : null}
      <Select
        label="Product"
        data={productOptions}
        value={values.product === '' ? NO_PRODUCT : values.product}
        onChange={(value) => set('product', !value || value === NO_PRODUCT ? '' : value)}
        allowDeselect={false}
        searchable
        nothingFoundMessage="No product found"
      />
      <NumberInput
        label="Sales Reference"
        value={values.salesRef}
        onChange={(value) => set('salesRef', value)}
        allowDecimal={false}
        allowNegative={false}
        hideControls
      />
      <CurrencyInput
        label="Total greater than"
        prefix=""
        value={values.amountMin}
        onChange={(value) => set('amountMin', value)}
      />
      <CurrencyInput
        label="Total less than"
        prefix=""
        value={values.amountMax}
        onChange={(value) => set('amountMax', value)}
      />
      <Select
        label="Payment status"
        data={PAYMENT_STATUS_OPTIONS}
        value={values.paymentStatus === '' ? ANY_PAYMENT_STATUS : values.paymentStatus}
        onChange={(value) => set('paymentStatus', paymentStatusFromOption(value))}
        allowDeselect={false}
      />
    </SimpleGrid>
  );
}
