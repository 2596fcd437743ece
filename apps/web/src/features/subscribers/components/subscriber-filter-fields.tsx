import { NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { DateField } from '../../../components/date-field.tsx';
import { referenceItemOptions, useReferenceItems } from '../../../entities/reference-lists/index.ts';
import { MAILING_LIST_STATUS_OPTIONS, type SubscriberFilters } from '../subscriber-filters.ts';

/** §2.1: every filter is optional. */
export const OPTIONAL_PLACEHOLDER = '** Optional **';

type SubscriberFilterFieldsProps = {
  form: UseFormReturnType<SubscriberFilters>;
};

/**
 * The filters of the subscribers search (part 2 §2.1, §4): First Name, Last Name, Town, Postal Code,
 * Country, Association, Mailing List Status, Payment Method, Custom Tag, Added Before, Added After,
 * Receiving x or more copies, Category; each with the placeholder ** Optional **. Selects come from
 * the reference lists; date fields show dd/mm/yyyy with Monday first and keep YYYY-MM-DD.
 */
export function SubscriberFilterFields({ form }: SubscriberFilterFieldsProps) {
  const countries = useReferenceItems('ctries');
  const paymentMethods = useReferenceItems('pmethods');
  const tags = useReferenceItems('tags');
  const categories = useReferenceItems('cats');

  const select = (field: keyof SubscriberFilters) => {
    const props = form.getInputProps(field);
    return {
      ...props,
      value: props.value ? String(props.value) : null,
      onChange: (value: string | null) => form.setFieldValue(field, value ?? ''),
      placeholder: OPTIONAL_PLACEHOLDER,
      clearable: true,
      searchable: true,
      nothingFoundMessage: 'Nothing found',
    };
  };
  const date = (field: 'addedBefore' | 'addedAfter') => ({
    value: form.values[field],
    onChange: (value: string) => form.setFieldValue(field, value),
    placeholder: OPTIONAL_PLACEHOLDER,
  });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }} spacing="md" verticalSpacing="sm">
      <TextInput label="First Name" placeholder={OPTIONAL_PLACEHOLDER} {...form.getInputProps('firstName')} />
      <TextInput label="Last Name" placeholder={OPTIONAL_PLACEHOLDER} {...form.getInputProps('lastName')} />
      <TextInput label="Town" placeholder={OPTIONAL_PLACEHOLDER} {...form.getInputProps('town')} />
      <TextInput label="Postal Code" placeholder={OPTIONAL_PLACEHOLDER} {...form.getInputProps('postcode')} />
      <Select label="Country" data={referenceItemOptions(countries)} {...select('country')} />
      <TextInput
        label="Association"
        placeholder={OPTIONAL_PLACEHOLDER}
        {...form.getInputProps('association')}
      />
      <Select
        label="Mailing List Status"
        data={[...MAILING_LIST_STATUS_OPTIONS]}
        {...select('status')}
        searchable={false}
      />
      <Select
        label="Payment Method"
        data={referenceItemOptions(paymentMethods)}
        {...select('paymentMethod')}
      />
      <Select label="Custom Tag" data={referenceItemOptions(tags)} {...select('tag')} />
      <DateField label="Added Before" {...date('addedBefore')} />
      <DateField label="Added After" {...date('addedAfter')} />
      <NumberInput
        label="Receiving x or more copies"
        placeholder={OPTIONAL_PLACEHOLDER}
        allowDecimal={false}
        allowNegative={false}
        min={0}
        value={form.values.copies}
        onChange={(value) => form.setFieldValue('copies', value === '' ? '' : String(value))}
      />
      <Select label="Category" data={referenceItemOptions(categories)} {...select('category')} />
    </SimpleGrid>
  );
}
