import { SEPA_PRE_NOTIFICATION_DAYS, type Settings } from '@back-office/contract/settings';
import { Checkbox, NumberInput, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/**
 * What SEPA direct debits need beyond the creditor identifier (EPC SEPA Core Direct Debit rulebook):
 * the account they are credited to, how many days before a collection each debtor is told of it, and
 * whether a mandate's first collection is sent as recurring (RCUR) rather than first (FRST).
 */
export function SettingsDirectDebitFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <Stack gap="md">
      <TextInput
        label="Creditor IBAN"
        description="The account the direct debits are credited to, written in the collection files."
        maw={420}
        {...form.getInputProps('sepaCreditorIban')}
      />
      <TextInput
        label="Creditor BIC"
        description="Optional."
        maw={240}
        {...form.getInputProps('sepaCreditorBic')}
      />
      <NumberInput
        label="Pre-notification (days)"
        description="Each debtor is emailed the amount and date of a direct debit this many days before it is collected (14 unless agreed otherwise with the donors)."
        allowDecimal={false}
        allowNegative={false}
        min={SEPA_PRE_NOTIFICATION_DAYS.min}
        max={SEPA_PRE_NOTIFICATION_DAYS.max}
        maw={320}
        {...form.getInputProps('sepaPreNotificationDays')}
      />
      <Checkbox
        label="Send first collections as recurring (RCUR)"
        description="Allowed by the SEPA rulebook since 2016; leave unticked if your bank still expects FRST for a mandate's first collection."
        {...form.getInputProps('sepaFirstAsRecurring', { type: 'checkbox' })}
      />
    </Stack>
  );
}
