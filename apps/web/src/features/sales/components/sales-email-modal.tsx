import { saleEmailListInputSchema } from '@back-office/contract/sales';
import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useEmailSaleSubscribers } from '../api/email-sale-subscribers.ts';
import type { SalesEmailFilters } from '../sales-filters.ts';

/** §8 success. */
export const EMAILS_SUBMITTED = 'Email(s) submitted successfully!';

type EmailValues = { subject: string; message: string };

/**
 * §5: subject required, at least 4 characters ("Subject is required"); message required ("Message is
 * required"): the rules and texts of the contract's `saleEmailListInputSchema`, as the server checks them.
 */
const validateSalesEmail = schemaValidator(saleEmailListInputSchema.pick({ subject: true, message: true }));

type SalesEmailModalProps = {
  opened: boolean;
  /** The filters of the search whose sales' subscribers are emailed. */
  filters: SalesEmailFilters;
  onClose: () => void;
};

/**
 * The Email Subscribers dialog of the Sales list (part 2 §2.5, §5, §8): Subject (placeholder "Enter
 * subject"), Message (5 rows), Send and Cancel. "Subject is required" (under 4 characters) and
 * "Message is required" once a field was touched; "Please complete all the information!" after an
 * invalid Send. It stays open with a busy Send until the server answers.
 */
export function SalesEmailModal({ opened, filters, onClose }: SalesEmailModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title="Email Subscribers" busy={busy} size="lg" onClose={onClose}>
      {opened ? <SalesEmailForm filters={filters} onDone={onClose} onBusyChange={setBusy} /> : null}
    </FormModal>
  );
}

function SalesEmailForm({
  filters,
  onDone,
  onBusyChange,
}: {
  filters: SalesEmailFilters;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const emailSubscribers = useEmailSaleSubscribers();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<EmailValues>({
    initialValues: { subject: '', message: '' },
    validate: validateSalesEmail,
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      onBusyChange(true);
      try {
        await emailSubscribers.mutateAsync({
          ...filters,
          subject: values.subject.trim(),
          message: values.message,
        });
      } catch {
        onBusyChange(false);
        notifyError('emailing the subscribers');
        return;
      }
      onBusyChange(false);
      notifySuccess(EMAILS_SUBMITTED);
      onDone();
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <TextInput
          label="Subject"
          placeholder="Enter subject"
          data-autofocus
          {...form.getInputProps('subject')}
        />
        <Textarea label="Message" rows={5} {...form.getInputProps('message')} />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={emailSubscribers.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={emailSubscribers.isPending}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
