import {
  BANK_ACCOUNT_CURRENCIES,
  type BankAccount,
  type BankAccountCurrency,
  isQrIban,
  REMINDER_INTERVAL_DAYS,
  type Settings,
} from '@back-office/contract/settings';
import { NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/**
 * `accounts` with the IBAN of `currency` set to `iban`, or without that currency's account when `iban`
 * is empty; always in the order of {@link BANK_ACCOUNT_CURRENCIES} (CHF, then EUR).
 */
export function withAccount(accounts: readonly BankAccount[], currency: BankAccountCurrency, iban: string) {
  const others = accounts.filter((account) => account.currency !== currency);
  const next = iban.trim() === '' ? others : [...others, { currency, iban }];
  return BANK_ACCOUNT_CURRENCIES.flatMap((code) => next.filter((account) => account.currency === code));
}

const DESCRIPTIONS: Record<BankAccountCurrency, string> = {
  CHF: 'Invoices in francs end with a Swiss QR-bill: an IBAN or QR-IBAN of a Swiss or Liechtenstein bank. Empty: none.',
  EUR: 'With a Swiss or Liechtenstein IBAN, invoices in euros end with a QR-bill too. Empty: none.',
};

/** One currency's IBAN field, over its entry of `bankAccounts`, with the server's errors of that entry. */
function AccountField({
  form,
  currency,
}: {
  form: UseFormReturnType<Settings>;
  currency: BankAccountCurrency;
}) {
  const accounts = form.values.bankAccounts ?? [];
  const index = accounts.findIndex((account) => account.currency === currency);
  const iban = index === -1 ? '' : (accounts[index]?.iban ?? '');
  const path = `bankAccounts.${index === -1 ? accounts.length : index}`;
  const error = form.errors[`${path}.iban`] ?? form.errors[`${path}.currency`];
  const qrIban = isQrIban(iban);
  return (
    <TextInput
      label={`${currency} account (IBAN)`}
      description={
        qrIban
          ? `This is a QR-IBAN: invoices in ${currency} carry a 27-digit QR reference.`
          : DESCRIPTIONS[currency]
      }
      maw={420}
      value={iban}
      error={error}
      data-path={`${path}.iban`}
      onChange={(event) => {
        const value = event.currentTarget.value;
        // Indexes move when an account is added or removed: the errors of the list go with the edit.
        form.setErrors(
          Object.fromEntries(Object.entries(form.errors).filter(([key]) => !key.startsWith('bankAccounts'))),
        );
        form.setFieldValue('bankAccounts', withAccount(accounts, currency, value));
      }}
      onBlur={() => {
        if (index !== -1) form.validateField(`${path}.iban`);
      }}
    />
  );
}

/**
 * How invoices are paid (docs/decisions/031): the organisation's account in francs and in euros
 * (`bankAccounts`, sent as a list of the currencies that have one; a QR-IBAN is said so), and whether
 * euro invoices without a QR-bill carry an EPC QR code (`epcQrCode`), and the fewest days between two
 * payment reminders (`reminderIntervalDays`, docs/decisions/034).
 */
export function SettingsInvoicePaymentFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <Stack gap="md">
      {BANK_ACCOUNT_CURRENCIES.map((currency) => (
        <AccountField key={currency} form={form} currency={currency} />
      ))}
      {form.errors.bankAccounts ? (
        <Text c="red" size="sm">
          {form.errors.bankAccounts}
        </Text>
      ) : null}
      <Switch
        label="EPC QR code on euro invoices"
        description="Euro invoices without a QR-bill, paid to an account in the SEPA area, carry a QR code that banking apps scan to fill in the transfer."
        {...form.getInputProps('epcQrCode', { type: 'checkbox' })}
      />
      <NumberInput
        label="Days between payment reminders"
        description="An overdue invoice's buyer is reminded by email at most once in this many days."
        allowDecimal={false}
        allowNegative={false}
        min={REMINDER_INTERVAL_DAYS.min}
        max={REMINDER_INTERVAL_DAYS.max}
        maw={320}
        {...form.getInputProps('reminderIntervalDays')}
      />
    </Stack>
  );
}
