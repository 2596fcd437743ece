import type { Settings } from '@back-office/contract/settings';
import { Fieldset, Grid, Select, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import { useNotifyReferenceListError, useReferenceList } from '../../../entities/reference-lists/index.ts';

/**
 * The countries that have an ISO code, as options whose value is the code (`France (FR)`), by name;
 * a stored code that no country has any more is kept as an option, so that the field shows it.
 */
export function countryCodeOptions(
  countries: ReadonlyArray<{ name: string; isoCode?: string | null | undefined }>,
  stored: string | null | undefined,
): Array<{ value: string; label: string }> {
  const options = countries.flatMap((country) =>
    country.isoCode ? [{ value: country.isoCode, label: `${country.name} (${country.isoCode})` }] : [],
  );
  if (stored && !options.some((option) => option.value === stored))
    options.unshift({ value: stored, label: stored });
  return options;
}

/**
 * The organisation's address as the Swiss QR-bill wants it (structured address, SIX QR-bill v2.3):
 * street, building number, postcode, town and country, each within the QR-bill's limits (contract
 * `ADDRESS_MAX_LENGTHS`, checked on blur and save like every field); the country is chosen among the
 * countries that have an ISO code.
 */
export function SettingsAddressFields({ form }: { form: UseFormReturnType<Settings> }) {
  const countries = useReferenceList('ctries', { sort: 'name' });
  useNotifyReferenceListError('ctries', countries.isError);
  const stored = form.values.addressCountry;
  const options = useMemo(() => countryCodeOptions(countries.data ?? [], stored), [countries.data, stored]);

  return (
    <Fieldset legend="Organisation address (structured)" variant="filled" radius="md">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The same address in parts, for the Swiss QR-bill and the receipts: the street without its number,
          the town without its postcode.
        </Text>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 8 }}>
            <TextInput label="Street" autoComplete="address-line1" {...form.getInputProps('addressStreet')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <TextInput
              label="Building number"
              autoComplete="off"
              {...form.getInputProps('addressBuildingNumber')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <TextInput
              label="Postcode"
              autoComplete="postal-code"
              {...form.getInputProps('addressPostcode')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <TextInput label="Town" autoComplete="address-level2" {...form.getInputProps('addressTown')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Select
              label="Country"
              placeholder="Choose a country"
              data={options}
              searchable
              clearable
              nothingFoundMessage="No country with an ISO code found"
              {...form.getInputProps('addressCountry')}
            />
          </Grid.Col>
        </Grid>
      </Stack>
    </Fieldset>
  );
}
