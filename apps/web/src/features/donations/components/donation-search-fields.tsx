import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { DateField } from '../../../components/date-field.tsx';
import { useNotifyReferenceListError, useReferenceList } from '../../../entities/reference-lists/index.ts';
import { type DonationSearchFilters, PAYMENT_FILTER_OPTIONS } from '../api/search-donations.ts';

/** Part 2 §2.1 placeholder of optional filters; also the "any" option of the lists (0, §9). */
const OPTIONAL = '** Optional **';

type DonationSearchFieldsProps = {
  form: UseFormReturnType<DonationSearchFilters>;
  /** With one subscriber, Last Name, Postcode, Payment Method and Country are not shown (part 2 §2.4). */
  forSubscriber: boolean;
};

function referenceOptions(items: Array<{ id: number; name: string }> | undefined) {
  return [
    { value: '0', label: OPTIONAL },
    ...(items ?? []).map((item) => ({ value: String(item.id), label: item.name })),
  ];
}

/**
 * The donation search fields (part 2 §2.4): Last Name, Postcode, Payment Method (Both / Paid by Direct
 * Debit Only / Not Paid by Direct Debit), Country (0 = any, by name) only without a subscriber; Added
 * Before, Added After, Amount greater than, Amount less than, Category always. None is required.
 */
export function DonationSearchFields({ form, forSubscriber }: DonationSearchFieldsProps) {
  const countries = useReferenceList('ctries', { sort: 'name' });
  const categories = useReferenceList('cats', { sort: 'name' });
  useNotifyReferenceListError('ctries', countries.isError);
  useNotifyReferenceListError('cats', categories.isError);

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" verticalSpacing="sm">
      {forSubscriber ? null : (
        <>
          <TextInput
            label="Last Name"
            placeholder={OPTIONAL}
            autoComplete="off"
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Postcode"
            placeholder={OPTIONAL}
            autoComplete="off"
            {...form.getInputProps('postCode')}
          />
          <Select
            label="Payment Method"
            data={PAYMENT_FILTER_OPTIONS.map((option) => ({ ...option }))}
            allowDeselect={false}
            {...form.getInputProps('isDebit')}
          />
          <Select
            label="Country"
            data={referenceOptions(countries.data)}
            allowDeselect={false}
            searchable
            {...form.getInputProps('country')}
          />
        </>
      )}
      <DateField
        label="Added Before"
        placeholder={OPTIONAL}
        value={form.values.addedBefore}
        onChange={(value) => form.setFieldValue('addedBefore', value)}
      />
      <DateField
        label="Added After"
        placeholder={OPTIONAL}
        value={form.values.addedAfter}
        onChange={(value) => form.setFieldValue('addedAfter', value)}
      />
      <CurrencyInput
        label="Amount greater than"
        prefix=""
        placeholder={OPTIONAL}
        {...form.getInputProps('amountMin')}
      />
      <CurrencyInput
        label="Amount less than"
        prefix=""
        placeholder={OPTIONAL}
        {...form.getInputProps('amountMax')}
      />
      <Select
        label="Category"
        data={referenceOptions(categories.data)}
        allowDeselect={false}
        searchable
        {...form.getInputProps('category')}
      />
    </SimpleGrid>
  );
}
