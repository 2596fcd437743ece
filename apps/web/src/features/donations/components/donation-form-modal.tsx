import { createDonationInputSchema } from '@back-office/contract/donations';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { DateField } from '../../../components/date-field.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { localIsoDate } from '../../../lib/download.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateDonation } from '../api/create-donation.ts';

/** Part 2 §5 New donation: amount and date required, notes optional (subid comes from the screen). */
const donationFormSchema = createDonationInputSchema.omit({ subid: true });

/** Part 2 §3 Donation form; the amount is `''` while empty, so that "required" can be told apart. */
type DonationFormValues = {
  amount: number | string;
  donationDate: string;
  notes: string;
};

/** The subscriber a donation is added for (the screen's `subid` and `sy` params, part 2 §2). */
export type DonationSubscriber = { id: number; symbol: string };

/** Part 2 §8: "Donation for '{amount}' was created successfully!" (amount in French format). */
export function donationCreatedMessage(amount: number): string {
  return `Donation for '${formatMoney(amount)}' was created successfully!`;
}

type DonationFormModalProps = {
  opened: boolean;
  subscriber: DonationSubscriber;
  onClose: () => void;
};

/**
 * The Add New Donation dialog (part 2 §2.4, §5 New donation, §8): Amount (the currency mask, left
 * aligned, prefixed by the subscriber's currency symbol, no negatives), Donation Date (day picker,
 * today by default, no future day), Notes to appear on receipt (5 rows), Cancel and Save. "Amount is
 * required" once the amount is touched and empty; "Please complete all the information!" after an
 * invalid submit. It stays open with a busy Save until the server answers; a refusal shows in the
 * shared banner naming the field, which gets the focus, and Save works again at the first click.
 */
export function DonationFormModal({ opened, subscriber, onClose }: DonationFormModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title="Add New Donation" busy={busy} onClose={onClose}>
      <DonationForm subscriber={subscriber} onDone={onClose} onBusyChange={setBusy} />
    </FormModal>
  );
}

type DonationFormProps = {
  subscriber: DonationSubscriber;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
};

function DonationForm({ subscriber, onDone, onBusyChange }: DonationFormProps) {
  const createDonation = useCreateDonation();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const today = localIsoDate();
  const form = useForm<DonationFormValues>({
    initialValues: { amount: '', donationDate: today, notes: '' },
    validate: schemaValidator(donationFormSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const serverError = useServerErrorBanner();

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      const input = donationFormSchema.parse(values);
      onBusyChange(true);
      try {
        const created = await createDonation.mutateAsync({ subid: subscriber.id, ...input });
        onBusyChange(false);
        notifySuccess(donationCreatedMessage(created.amount));
        form.reset();
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (!serverError.show(error, form.setFieldError)) notifyError('creating a donation');
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <CurrencyInput
          label="Amount"
          prefix={subscriber.symbol}
          data-autofocus
          styles={{ input: { textAlign: 'left' } }}
          {...form.getInputProps('amount')}
        />
        <DateField
          label="Donation Date"
          maxDate={today}
          clearable={false}
          {...form.getInputProps('donationDate')}
          value={form.values.donationDate}
          onChange={(value) => form.setFieldValue('donationDate', value)}
        />
        <Textarea label="Notes to appear on receipt" rows={5} {...form.getInputProps('notes')} />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={createDonation.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={createDonation.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
