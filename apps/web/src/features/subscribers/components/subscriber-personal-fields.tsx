import { SimpleGrid, TextInput } from '@mantine/core';
import type { SubscriberForm, SubscriberLookups } from '../subscriber-form-values.ts';
import { LookupSelect } from './lookup-select.tsx';

type Props = { form: SubscriberForm; lookups: SubscriberLookups };

/** Panel 1, Personal Details (part 2 §2.2): title, first name, last name, category (0 = none), association. */
export function SubscriberPersonalFields({ form, lookups }: Props) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="sm">
      <TextInput label="Title" placeholder="Mme, M., Dr..." {...form.getInputProps('title')} />
      <TextInput label="First Name" withAsterisk {...form.getInputProps('firstName')} />
      <TextInput label="Last Name" withAsterisk {...form.getInputProps('lastName')} />
      <LookupSelect
        label="Category"
        placeholder="None"
        items={lookups.categories}
        {...form.getInputProps('categoryId')}
      />
      <TextInput label="Association" {...form.getInputProps('association')} />
    </SimpleGrid>
  );
}
