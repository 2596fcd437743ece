import { subscriberEmailListInputSchema } from '@back-office/contract/subscribers';
import { Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormModal } from '../../../components/form-modal.tsx';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useEmailSubscribers } from '../api/email-subscribers.ts';
import { type SubscriberFilters, subscriberEmailFilters } from '../subscriber-filters.ts';

/** §8: the success toast of the bulk email. */
export const EMAIL_SUBMITTED_MESSAGE = 'Email(s) submitted successfully!';

const emailFormSchema = subscriberEmailListInputSchema.pick({ subject: true, message: true });

type EmailSubscribersModalProps = {
  opened: boolean;
  /** The filters of the current search: the email goes to every match with an email address. */
  filters: SubscriberFilters;
  onClose: () => void;
};

/**
 * The Email Subscribers modal (part 2 §2.1, §3 email-list payload, §5): Subject (placeholder Enter
 * subject, at least 4 characters: "Subject is required"), message (5 rows: "Message is required"),
 * Send and Cancel. Errors show once a field is touched or after a send attempt. Sends the current
 * search's filters; stays open with a busy Send until the server answers.
 */
export function EmailSubscribersModal({ opened, filters, onClose }: EmailSubscribersModalProps) {
  const emailSubscribers = useEmailSubscribers();
  return (
    <FormModal
      opened={opened}
      title="Email Subscribers"
      busy={emailSubscribers.isPending}
      size="lg"
      onClose={onClose}
    >
      {opened ? <EmailForm filters={filters} emailSubscribers={emailSubscribers} onDone={onClose} /> : null}
    </FormModal>
  );
}

type EmailFormProps = {
  filters: SubscriberFilters;
  emailSubscribers: ReturnType<typeof useEmailSubscribers>;
  onDone: () => void;
};

function EmailForm({ filters, emailSubscribers, onDone }: EmailFormProps) {
  const blurGuard = useBlurValidationGuard();
  const form = useForm({
    initialValues: { subject: '', message: '' },
    validate: schemaValidator(emailFormSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await emailSubscribers.mutateAsync({ ...subscriberEmailFilters(filters), ...values });
    } catch {
      notifyError('emailing the subscribers');
      return;
    }
    notifySuccess(EMAIL_SUBMITTED_MESSAGE);
    onDone();
  });

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
        <Text size="xs" c="dimmed">
          {'{title}'}, {'{firstName}'} and {'{lastName}'} are replaced by each subscriber's own.
        </Text>
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
