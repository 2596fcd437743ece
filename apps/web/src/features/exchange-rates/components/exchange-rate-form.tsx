import { type SaveExchangeRateInput, saveExchangeRateSchema } from '@back-office/contract/exchange-rates';
import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { z } from 'zod';
import { DateField } from '../../../components/date-field.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { organisationToday } from '../../../lib/calendar.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { frenchDay } from '../../../lib/french-date.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSaveExchangeRate } from '../api/save-exchange-rate.ts';
import { formatRate, parseRate } from '../exchange-rate-format.ts';

/** The form's values as typed: the day `YYYY-MM-DD`, the currency code, the rate as text (`0,9412`). */
type ExchangeRateFormValues = { date: string; currency: string; rate: string };

/**
 * The contract's rules over what is typed: the currency in any case (sent upper case), the rate with a
 * decimal comma (or point) read by `parseRate`, then checked as the server checks it.
 */
const exchangeRateFormSchema = z.object({
  date: z.string().min(1, { message: 'The date is required.' }).pipe(saveExchangeRateSchema.shape.date),
  currency: z
    .string()
    .trim()
    .min(1, { message: 'The currency is required.' })
    .toUpperCase()
    .pipe(saveExchangeRateSchema.shape.currency),
  rate: z
    .string()
    .trim()
    .min(1, { message: 'The rate is required.' })
    .transform((text, context) => {
      const rate = parseRate(text);
      if (rate === null) {
        context.addIssue({ code: 'custom', message: 'The rate is a number, such as 0,9412.' });
        return z.NEVER;
      }
      return rate;
    })
    .pipe(saveExchangeRateSchema.shape.rate),
});

/** The success toast: "1 EUR = 0,9412 CHF on 01/03/2024 is saved." */
export function rateSavedMessage({ date, currency, rate }: SaveExchangeRateInput): string {
  return `1 EUR = ${formatRate(rate)} ${currency} on ${frenchDay(date)} is saved.`;
}

/**
 * Adds one rate (Administrators): the day (typed `dd/mm/yyyy` or picked; today at first), the
 * currency's ISO code, and the rate in units of that currency for 1 euro with a decimal comma. A rate
 * already stored for that day and currency is not changed: the server's refusal, naming the stored
 * rate, shows under Rate. After a save the fields keep what was typed: the next currency of that day
 * needs only its code and rate changed (emptied fields would say "required" as soon as they are left),
 * and saving the same rate again is harmless.
 */
export function ExchangeRateForm() {
  const save = useSaveExchangeRate();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<ExchangeRateFormValues>({
    initialValues: { date: organisationToday(), currency: '', rate: '' },
    validate: schemaValidator(exchangeRateFormSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      const input = exchangeRateFormSchema.parse(values);
      try {
        await save.mutateAsync(input);
        notifySuccess(rateSavedMessage(input));
      } catch (error) {
        if (!serverError.show(error, form.setFieldError)) notifyError('saving the rate');
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form
      ref={serverError.formRef}
      onSubmit={handleSubmit}
      noValidate
      aria-label="Add a rate"
      {...blurGuard.formProps}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md" verticalSpacing="sm">
          <DateField
            label="Date"
            withAsterisk
            clearable={false}
            {...form.getInputProps('date')}
            value={form.values.date}
            onChange={(value) => form.setFieldValue('date', value)}
          />
          <TextInput
            label="Currency"
            placeholder="CHF"
            withAsterisk
            maxLength={3}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            {...form.getInputProps('currency')}
            onChange={(event) => form.setFieldValue('currency', event.currentTarget.value.toUpperCase())}
          />
          <TextInput
            label="Rate for 1 €"
            placeholder="0,9412"
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            {...form.getInputProps('rate')}
          />
        </SimpleGrid>
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save rate
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
