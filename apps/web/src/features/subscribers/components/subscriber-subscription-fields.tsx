import { NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import type { SubscriberForm, SubscriberLookups } from '../subscriber-form-values.ts';
import { LookupSelect } from './lookup-select.tsx';

type Props = { form: SubscriberForm; lookups: SubscriberLookups };

/** Panel 5, Subscription Details (part 2 §2.2): subscription type, copies, recommended by. */
export function SubscriberSubscriptionFields({ form, lookups }: Props) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
      <LookupSelect
        label="Subscription Type"
        placeholder="None"
        items={lookups.subscriptionTypes}
        {...form.getInputProps('subscriptionTypeId')}
      />
      <NumberInput
        label="Copies"
        allowDecimal={false}
        allowNegative={false}
        min={0}
        {...form.getInputProps('copies')}
      />
      <TextInput label="Recommended By" {...form.getInputProps('recommendedBy')} />
    </SimpleGrid>
  );
}
