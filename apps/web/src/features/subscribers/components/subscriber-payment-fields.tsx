import { SimpleGrid, TextInput } from '@mantine/core';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { DateField } from '../../../components/date-field.tsx';
import type { SubscriberForm, SubscriberLookups } from '../subscriber-form-values.ts';
import { LookupSelect } from './lookup-select.tsx';

type Props = { form: SubscriberForm; lookups: SubscriberLookups };

/**
 * Panel 4, Payment Details (part 2 §2.2): payment method, bank, IBAN, currency (required: "Currency."),
 * amount in that currency, RUM (direct-debit mandate reference), start and end dates (pickers open
 * upward, French dd/mm/yyyy with Monday first).
 */
export function SubscriberPaymentFields({ form, lookups }: Props) {
  const symbol = lookups.currencies.find((currency) => currency.id === form.values.currencyId)?.symbol ?? '';
  const date = (field: 'startDate' | 'endDate') => ({
    value: form.values[field],
    onChange: (value: string) => form.setFieldValue(field, value),
    error: form.errors[field],
    opensUpward: true,
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="md" verticalSpacing="sm">
      <LookupSelect
        label="Payment Method"
        placeholder="None"
        items={lookups.paymentMethods}
        {...form.getInputProps('paymentMethodId')}
      />
      <TextInput label="Bank" {...form.getInputProps('bank')} />
      <TextInput label="IBAN" autoComplete="off" {...form.getInputProps('iban')} />
      <LookupSelect
        label="Currency"
        withAsterisk
        clearable={false}
        searchable={false}
        items={lookups.currencies}
        {...form.getInputProps('currencyId')}
      />
      <CurrencyInput label="Amount" prefix={symbol} {...form.getInputProps('amount')} />
      <TextInput label="RUM" title="Direct-debit mandate reference" {...form.getInputProps('rum')} />
      <DateField label="Start Date" {...date('startDate')} />
      <DateField label="End Date" {...date('endDate')} />
    </SimpleGrid>
  );
}
