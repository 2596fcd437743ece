import { Button, Group, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { IconNotes } from '@tabler/icons-react';
import {
  addressChangedNote,
  appendToNotes,
  currencyForCountry,
  type SubscriberForm,
  type SubscriberLookups,
} from '../subscriber-form-values.ts';
import { LookupSelect } from './lookup-select.tsx';

type Props = { form: SubscriberForm; lookups: SubscriberLookups };

/**
 * Panel 2, Address (part 2 §2.2, §5): address lines 1-3, town, country, postcode, the billing address,
 * and Copy to Notes, which appends "Address changed (date):" and the address to the notes. Choosing a
 * country whose name contains "suisse" selects the currency whose name contains "swiss".
 */
export function SubscriberAddressFields({ form, lookups }: Props) {
  const countryProps = form.getInputProps('countryId');

  const handleCountryChange = (countryId: number) => {
    form.setFieldValue('countryId', countryId);
    const swiss = currencyForCountry(countryId, lookups.countries, lookups.currencies);
    if (swiss !== null) form.setFieldValue('currencyId', swiss);
  };

  const handleCopyToNotes = () => {
    const values = form.getValues();
    const countryName = lookups.countries.find((country) => country.id === values.countryId)?.name ?? '';
    form.setFieldValue('notes', appendToNotes(values.notes, addressChangedNote(values, countryName)));
  };

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
        <TextInput label="Address 1" {...form.getInputProps('address1')} />
        <TextInput label="Address 2" {...form.getInputProps('address2')} />
        <TextInput label="Address 3" {...form.getInputProps('address3')} />
        <TextInput label="Town" {...form.getInputProps('town')} />
        <LookupSelect
          label="Country"
          placeholder="None"
          items={lookups.countries}
          {...countryProps}
          onChange={handleCountryChange}
        />
        <TextInput label="Postcode" {...form.getInputProps('postcode')} />
      </SimpleGrid>
      <Textarea
        label="Billing Address"
        description="When invoices go to another address. Shift+Enter starts a new line."
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('billingAddress')}
      />
      <Group justify="flex-end">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconNotes size={14} aria-hidden />}
          onClick={handleCopyToNotes}
        >
          Copy to Notes
        </Button>
      </Group>
    </Stack>
  );
}
