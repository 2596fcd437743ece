import { ORGANISATION_TYPES, type Settings } from '@back-office/contract/settings';
import { Radio, Select, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ImageField, SIGNATURE_IMAGE_FIELD } from './image-field.tsx';

const ORGANISATION_TYPE_OPTIONS = Object.entries(ORGANISATION_TYPES).map(([value, label]) => ({
  value,
  label,
}));

/**
 * What tax receipts need beyond the texts (docs/decisions/022): which receipt donors living outside
 * France and Switzerland get (a donor's country of residence decides the others: France the Cerfa,
 * Switzerland the attestation), the box the organisation ticks on the Cerfa, and the signatory's
 * signature image.
 */
export function SettingsReceiptFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <Stack gap="lg">
      <Select
        label="Type of organisation"
        description="The box ticked in the Bénéficiaire section of the Cerfa 11580*05"
        data={ORGANISATION_TYPE_OPTIONS}
        allowDeselect={false}
        {...form.getInputProps('organisationType')}
      />
      <TextInput
        label="Type of organisation: detail"
        description="For a recognition of public utility, the date of the decree and of its publication in the Journal officiel; for another organisation, what it is"
        {...form.getInputProps('organisationTypeDetail')}
      />
      <Radio.Group
        label="Receipt for donors in other countries"
        description="Donors living in France always get the French tax receipt (Cerfa 11580*05), and donors living in Switzerland the Swiss attestation de dons. Donors living in any other country get the one chosen here."
        {...form.getInputProps('receiptForOtherCountries')}
      >
        <Stack gap="sm" mt="xs">
          <Radio
            value="cerfa"
            label="Cerfa"
            description="Reçu au titre des dons à certains organismes d'intérêt général (Cerfa 11580*05)"
          />
          <Radio
            value="attestation"
            label="Attestation"
            description="Attestation de dons, as for Switzerland"
          />
        </Stack>
      </Radio.Group>
      <ImageField
        kind={SIGNATURE_IMAGE_FIELD}
        value={form.values.signatureImage ?? null}
        error={form.errors.signatureImage}
        onChange={(image) => form.setFieldValue('signatureImage', image)}
        onError={(message) => form.setFieldError('signatureImage', message)}
      />
    </Stack>
  );
}
