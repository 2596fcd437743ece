import { type Mandate, revokeMandateSchema } from '@back-office/contract/mandates';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useRevokeMandate } from '../api/revoke-mandate.ts';

/** The reason is required, at most 500 characters: the contract's rule. */
const validateRevoke = schemaValidator(revokeMandateSchema);

type RevokeMandateModalProps = {
  /** The mandate to revoke; null closes the dialog. */
  mandate: Mandate | null;
  /** After the revocation (the subscriber's record changed too). */
  onRevoked: () => void;
  onClose: () => void;
};

/**
 * Revokes an active or suspended mandate, with a reason (kept with it and written in the history):
 * it can no longer be collected. The dialog stays open with a busy button until the server answers.
 */
export function RevokeMandateModal({ mandate, onRevoked, onClose }: RevokeMandateModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={mandate !== null} title="Revoke the mandate" busy={busy} onClose={onClose}>
      {mandate ? (
        <RevokeForm mandate={mandate} onDone={onClose} onRevoked={onRevoked} onBusyChange={setBusy} />
      ) : null}
    </FormModal>
  );
}

function RevokeForm({
  mandate,
  onDone,
  onRevoked,
  onBusyChange,
}: {
  mandate: Mandate;
  onDone: () => void;
  onRevoked: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const revoke = useRevokeMandate();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm({
    initialValues: { reason: '' },
    validate: validateRevoke,
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
        await revoke.mutateAsync({ mandate, reason: values.reason.trim() });
        onBusyChange(false);
        notifySuccess(`The mandate ${mandate.rum} was revoked.`);
        onRevoked();
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (!serverError.show(error, form.setFieldError)) notifyError('revoking the mandate');
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form
      ref={serverError.formRef}
      onSubmit={handleSubmit}
      noValidate
      aria-label="Revoke the mandate"
      {...blurGuard.formProps}
    >
      <Stack gap="md">
        <Text size="sm">
          The mandate {mandate.rum} will no longer be collected. A new mandate must be signed to debit this
          subscriber again.
        </Text>
        <Textarea label="Reason" withAsterisk rows={3} data-autofocus {...form.getInputProps('reason')} />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={revoke.isPending}>
            Keep it
          </Button>
          <Button type="submit" color="red" loading={revoke.isPending}>
            Revoke
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
