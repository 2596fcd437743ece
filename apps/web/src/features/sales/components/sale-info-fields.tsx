import type { ReferenceItem } from '@back-office/contract/reference-lists';
import {
  Accordion,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { KeyboardEvent } from 'react';
import { type NewSaleValues, NO_COUNTRY, PLEASE_SELECT_COUNTRY } from '../new-sale-model.ts';

/** §2.6 toggles: the hint under each switch, on and off. */
export const THANKS_HINTS = { on: '(Yes - include thanks.)', off: "(No - don't include thanks.)" } as const;
export const SWISS_SALE_HINTS = { on: '(Yes - Swiss sale)', off: '(No - not a Swiss sale)' } as const;
export const TERMS_HINTS = {
  on: '(Yes - include payment terms.)',
  off: "(No - don't include payment terms.)",
} as const;

/** §9: "Message and notes text areas have 5 rows". */
const TEXT_AREA_ROWS = 5;

/**
 * §2.6 "shift+return for newline": Return alone does nothing in the screen's text areas (Enter never
 * submits the New Sale form either); Shift+Return starts a new line.
 */
export function keepReturnForShift(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === 'Enter' && !event.shiftKey) event.preventDefault();
}

type SaleInfoFieldsProps = {
  form: UseFormReturnType<NewSaleValues>;
  countries: readonly ReferenceItem[];
};

/**
 * The collapsible "Sale Info" panel of the New Sale screen, open by default (part 2 §2.6): Order
 * Number; Address 1-3, Town, Postcode and Country (defaults from the subscriber); Delivery Address;
 * the includeThanks, swissSale and includeTerms toggles with their hints; Payment Terms (days),
 * read-only unless includeTerms is on (§4); Notes.
 */
export function SaleInfoFields({ form, countries }: SaleInfoFieldsProps) {
  const countryOptions = [
    { value: NO_COUNTRY, label: PLEASE_SELECT_COUNTRY },
    ...countries.map((country) => ({ value: String(country.id), label: country.name })),
  ];
  const { values } = form;

  return (
    <Accordion variant="separated" radius="md" defaultValue="sale-info" mb="lg">
      <Accordion.Item value="sale-info">
        <Accordion.Control>Sale Info</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              <TextInput label="Order Number" autoComplete="off" {...form.getInputProps('orderNumber')} />
              <TextInput label="Address 1" autoComplete="off" {...form.getInputProps('addr1')} />
              <TextInput label="Address 2" autoComplete="off" {...form.getInputProps('addr2')} />
              <TextInput label="Address 3" autoComplete="off" {...form.getInputProps('addr3')} />
              <TextInput
                label="Town"
                autoComplete="off"
                withAsterisk={form.values.swissSale}
                {...form.getInputProps('town')}
              />
              <TextInput
                label="Postcode"
                autoComplete="off"
                withAsterisk={form.values.swissSale}
                {...form.getInputProps('postcode')}
              />
              <Select
                label="Country"
                withAsterisk={form.values.swissSale}
                data={countryOptions}
                searchable
                allowDeselect={false}
                nothingFoundMessage="No country found"
                {...form.getInputProps('country')}
                onChange={(value) => form.setFieldValue('country', value ?? NO_COUNTRY)}
              />
            </SimpleGrid>
            <Textarea
              label="Delivery Address"
              description="Shift+Return for a new line"
              rows={TEXT_AREA_ROWS}
              onKeyDown={keepReturnForShift}
              {...form.getInputProps('deliveryAddress')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} verticalSpacing="md">
              <Switch
                label="Include thanks?"
                description={values.includeThanks ? THANKS_HINTS.on : THANKS_HINTS.off}
                {...form.getInputProps('includeThanks', { type: 'checkbox' })}
              />
              <Switch
                label="Swiss sale?"
                description={values.swissSale ? SWISS_SALE_HINTS.on : SWISS_SALE_HINTS.off}
                {...form.getInputProps('swissSale', { type: 'checkbox' })}
              />
              <Switch
                label="Include payment terms?"
                description={values.includeTerms ? TERMS_HINTS.on : TERMS_HINTS.off}
                {...form.getInputProps('includeTerms', { type: 'checkbox' })}
              />
              <NumberInput
                label="Payment Terms (days)"
                allowDecimal={false}
                allowNegative={false}
                min={0}
                max={365}
                readOnly={!values.includeTerms}
                variant={values.includeTerms ? 'default' : 'filled'}
                {...form.getInputProps('paymentTerms')}
              />
            </SimpleGrid>
            <Textarea
              label="Notes"
              description="Shift+Return for a new line"
              rows={TEXT_AREA_ROWS}
              onKeyDown={keepReturnForShift}
              {...form.getInputProps('notes')}
            />
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
