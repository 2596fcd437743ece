import { SimpleGrid, TextInput } from '@mantine/core';
import { DateField } from '../../../components/date-field.tsx';
import type { ExchangeRateFilters } from '../api/get-exchange-rates.ts';

type ExchangeRateSearchFieldsProps = {
  values: ExchangeRateFilters;
  onChange: (values: ExchangeRateFilters) => void;
};

/**
 * The fields of the Exchange rates search panel: the currency's ISO code, and the days from and to
 * (both included; the shared French dd/mm/yyyy date fields, sent as YYYY-MM-DD). None is required.
 */
export function ExchangeRateSearchFields({ values, onChange }: ExchangeRateSearchFieldsProps) {
  const set = <K extends keyof ExchangeRateFilters>(field: K, value: ExchangeRateFilters[K]) =>
    onChange({ ...values, [field]: value });

  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <TextInput
        label="Currency"
        placeholder="All"
        maxLength={3}
        autoComplete="off"
        spellCheck={false}
        value={values.currency}
        onChange={(event) => set('currency', event.currentTarget.value.toUpperCase())}
      />
      <DateField
        label="From"
        value={values.from}
        onChange={(value) => set('from', value)}
        clearButtonProps={{ 'aria-label': 'Clear the From date' }}
      />
      <DateField
        label="To"
        value={values.to}
        onChange={(value) => set('to', value)}
        clearButtonProps={{ 'aria-label': 'Clear the To date' }}
      />
    </SimpleGrid>
  );
}
