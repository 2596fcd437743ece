import { anonymiseSubscriberInputSchema } from '@back-office/contract/personal-data';
import type { Subscriber } from '@back-office/contract/subscribers';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useAnonymiseSubscriber } from '../api/anonymise-subscriber.ts';

type AnonymiseValues = { reason: string };

/** The reason is required, 3 to 500 characters: the contract's rule, as the server checks it. */
const validateAnonymise = schemaValidator(anonymiseSubscriberInputSchema);

/** The success toast of an anonymisation. */
export function anonymisedMessage(id: number): string {
  return `Subscriber ${id} was anonymised.`;
}

type AnonymiseSubscriberModalProps = {
  /** The subscriber to anonymise (as last saved). */
  subscriber: Subscriber;
  opened: boolean;
  onClose: () => void;
  /** Called once the server has anonymised them (the screen then goes back to the search). */
  onAnonymised: () => void;
};

/**
 * The "Anonymise…" confirmation of the subscriber screen (Administrator; GDPR art. 17,
 * docs/decisions/019): says what is erased and kept, that it cannot be undone, and asks for the
 * reason (required, written in the history and the audit trail). The dialog stays open with a busy
 * button until the server answers.
 */
export function AnonymiseSubscriberModal({
  subscriber,
  opened,
  onClose,
  onAnonymised,
}: AnonymiseSubscriberModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title="Anonymise subscriber" busy={busy} onClose={onClose}>
      {opened ? (
        <AnonymiseForm
          subscriber={subscriber}
          onCancel={onClose}
          onDone={onAnonymised}
          onBusyChange={setBusy}
        />
      ) : null}
    </FormModal>
  );
}

function AnonymiseForm({
  subscriber,
  onCancel,
  onDone,
  onBusyChange,
}: {
  subscriber: Subscriber;
  onCancel: () => void;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const anonymise = useAnonymiseSubscriber();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<AnonymiseValues>({
    initialValues: { reason: '' },
    validate: validateAnonymise,
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      onBusyChange(true);
      try {
        await anonymise.mutateAsync({ id: subscriber.id, reason: values.reason.trim() });
        onBusyChange(false);
        notifySuccess(anonymisedMessage(subscriber.id));
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (error instanceof ApiError && error.code === 'subscribers.anonymised') {
          notifyError('anonymising the subscriber', 'This subscriber was already anonymised.');
          onDone();
          return;
        }
        if (!serverError.show(error, form.setFieldError)) notifyError('anonymising the subscriber');
      }
    },
    () => setSubmittedInvalid(true),
  );

  const name = [subscriber.firstName, subscriber.lastName].filter(Boolean).join(' ');
  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} title="This cannot be undone">
          {name}’s name, contact details, addresses, notes, bank details and tags will be erased for good, and
          the record hidden. Donations, sales and the receipts and invoices already issued are kept.
        </Alert>
        <Text size="sm">
          The reason is kept in the history and the audit log: say why (e.g. “Request by letter of 2 May”)
          without naming the person.
        </Text>
        <Textarea label="Reason" required rows={3} data-autofocus {...form.getInputProps('reason')} />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={anonymise.isPending}>
            Keep the subscriber
          </Button>
          <Button type="submit" color="red" loading={anonymise.isPending}>
            Anonymise
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
