import type { Settings } from '@back-office/contract/settings';
import { SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ImageField, LOGO_FIELD } from './image-field.tsx';
import { SettingsAddressFields } from './settings-address-fields.tsx';

/**
 * The organisation's identity on documents: name, address (as printed, and structured for the Swiss
 * QR-bill), SIREN or RNA number, SEPA creditor identifier (ICS), purpose and logo.
 */
export function SettingsOrganisationFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <Stack gap="md">
      <TextInput
        label="Organisation name"
        autoComplete="organization"
        {...form.getInputProps('organisationName')}
      />
      <Textarea
        label="Address"
        autosize
        minRows={3}
        maxRows={6}
        autoComplete="street-address"
        {...form.getInputProps('address')}
      />
      <SettingsAddressFields form={form} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="SIREN or RNA number" autoComplete="off" {...form.getInputProps('sirenOrRna')} />
        <TextInput
          label="SEPA creditor identifier (ICS)"
          autoComplete="off"
          {...form.getInputProps('sepaCreditorId')}
        />
      </SimpleGrid>
      <Textarea
        label="Organisation purpose"
        description="Shown on tax receipts."
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('organisationPurpose')}
      />
      <ImageField
        kind={LOGO_FIELD}
        value={form.values.logo}
        error={form.errors.logo}
        onChange={(logo) => form.setFieldValue('logo', logo)}
        onError={(message) => form.setFieldError('logo', message)}
      />
    </Stack>
  );
}
