import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import type { $ZodType } from 'zod/v4/core';
import { schemaValidator, useBlurValidationGuard } from '../lib/form.ts';
import { notifyError, notifySuccess } from '../lib/notify.ts';
import { FormModal } from './form-modal.tsx';
import { IncompleteFormAlert } from './incomplete-form-alert.tsx';

/** Part 2 §8: the success toast of a bulk email. */
export const EMAILS_SUBMITTED_MESSAGE = 'Email(s) submitted successfully!';

/** What the user writes: `{subject, message}`, as typed. */
export type BulkEmailContent = { subject: string; message: string };

/** Props of {@link BulkEmailDialog}. */
export type BulkEmailDialogProps = {
  opened: boolean;
  /**
   * The contract's rules of the subject and message (e.g. `subscriberEmailListInputSchema.pick({subject,
   * message})`): part 2 §5 "Subject is required" (at least 4 characters), "Message is required".
   */
  schema: $ZodType;
  /**
   * Sends the email to the recipients of the screen's current search (its filters are the caller's);
   * resolves once the server accepted it, rejects when it refused.
   */
  onSend: (content: BulkEmailContent) => Promise<unknown>;
  /** A line under the message, e.g. which placeholders are replaced. */
  hint?: ReactNode;
  /** Shows "Please complete all the information!" after a Send with invalid fields. */
  showIncompleteAlert?: boolean;
  onClose: () => void;
};

/**
 * The Email Subscribers dialog of the search screens (part 2 §2.1 Subscribers, §2.5 Sales; §3 email-list
 * payloads, §5, §8): Subject (placeholder "Enter subject"), Message (5 rows), Send and Cancel. Errors
 * show once a field is touched or after a Send; it stays open with a busy Send until the server answers,
 * then says "Email(s) submitted successfully!" and closes, or "Houston - there was a problem emailing the
 * subscribers." and stays.
 */
export function BulkEmailDialog({
  opened,
  schema,
  onSend,
  hint,
  showIncompleteAlert = false,
  onClose,
}: BulkEmailDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title="Email Subscribers" busy={busy} size="lg" onClose={onClose}>
      {opened ? (
        <BulkEmailForm
          schema={schema}
          onSend={onSend}
          hint={hint}
          showIncompleteAlert={showIncompleteAlert}
          busy={busy}
          onBusyChange={setBusy}
          onDone={onClose}
        />
      ) : null}
    </FormModal>
  );
}

type BulkEmailFormProps = Pick<BulkEmailDialogProps, 'schema' | 'onSend' | 'hint' | 'showIncompleteAlert'> & {
  busy: boolean;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
};

function BulkEmailForm({
  schema,
  onSend,
  hint,
  showIncompleteAlert,
  busy,
  onBusyChange,
  onDone,
}: BulkEmailFormProps) {
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<BulkEmailContent>({
    initialValues: { subject: '', message: '' },
    validate: schemaValidator(schema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      onBusyChange(true);
      try {
        await onSend(values);
      } catch {
        onBusyChange(false);
        notifyError('emailing the subscribers');
        return;
      }
      onBusyChange(false);
      notifySuccess(EMAILS_SUBMITTED_MESSAGE);
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
        {hint}
        {showIncompleteAlert ? <IncompleteFormAlert show={submittedInvalid && !form.isValid()} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
