import { cancelReceiptSchema, type RegisteredReceipt } from '@back-office/contract/receipts';
import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCancelReceipt } from '../api/cancel-receipt.ts';
import { useReplaceReceipt } from '../api/replace-receipt.ts';
import { receiptCancelledMessage, receiptReplacedMessage } from '../receipt-format.ts';

/** What the dialog does to the receipt: cancel it, or cancel it and issue the next number in its place. */
export type ReceiptChange = 'cancel' | 'replace';

/** The reason is required, 3 to 500 characters: the contract's rule, as the server checks it. */
const validateReason = schemaValidator(cancelReceiptSchema);

/** The words of each change: title, consequence, confirm button, and the error toast's middle part. */
const WORDING: Record<
  ReceiptChange,
  {
    title: (number: number) => string;
    consequence: (number: number) => string;
    confirm: string;
    failing: string;
  }
> = {
  cancel: {
    title: (number) => `Cancel receipt n° ${number}`,
    consequence: (number) =>
      `Receipt n° ${number} will be printed ANNULÉ with this reason; its gifts can be receipted again.`,
    confirm: 'Cancel the receipt',
    failing: 'cancelling the receipt',
  },
  replace: {
    title: (number) => `Replace receipt n° ${number}`,
    consequence: (number) =>
      `Receipt n° ${number} is cancelled and a receipt with the next number will be issued for the same gifts.`,
    confirm: 'Replace the receipt',
    failing: 'replacing the receipt',
  },
};

type ReceiptReasonModalProps = {
  opened: boolean;
  /** The receipt and what to do to it; kept while the dialog fades out so its content does not vanish first. */
  target: { receipt: RegisteredReceipt; change: ReceiptChange } | null;
  onClose: () => void;
};

/**
 * The Cancel… and Replace… dialog of the Receipts screen (Administrators): it says what will happen in
 * one sentence and asks why (a required Reason, 3 to 500 characters, printed on the cancelled receipt).
 * It stays open with a busy button until the server answers; a toast then says what was done. When the
 * server refuses (409: already cancelled), its sentence is shown in the dialog.
 */
export function ReceiptReasonModal({ opened, target, onClose }: ReceiptReasonModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened={opened}
      title={target ? WORDING[target.change].title(target.receipt.number) : ''}
      busy={busy}
      onClose={onClose}
    >
      {target ? (
        <ReceiptReasonForm
          key={`${target.change}-${target.receipt.number}`}
          receipt={target.receipt}
          change={target.change}
          onDone={onClose}
          onBusyChange={setBusy}
        />
      ) : null}
    </FormModal>
  );
}

type ReceiptReasonFormProps = {
  receipt: RegisteredReceipt;
  change: ReceiptChange;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
};

function ReceiptReasonForm({ receipt, change, onDone, onBusyChange }: ReceiptReasonFormProps) {
  const cancelReceipt = useCancelReceipt();
  const replaceReceipt = useReplaceReceipt();
  const mutation = change === 'cancel' ? cancelReceipt : replaceReceipt;
  const wording = WORDING[change];
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<{ reason: string }>({
    initialValues: { reason: '' },
    validate: validateReason,
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      setRefusal(null);
      serverError.clear();
      onBusyChange(true);
      try {
        const answer = await mutation.mutateAsync({ number: receipt.number, reason: values.reason.trim() });
        onBusyChange(false);
        notifySuccess(
          change === 'cancel'
            ? receiptCancelledMessage(receipt.number)
            : receiptReplacedMessage(answer.number, receipt.number),
        );
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (error instanceof ApiError && error.status === 409 && error.detail) {
          setRefusal(error.detail);
          return;
        }
        if (!serverError.show(error, form.setFieldError)) {
          notifyError(wording.failing, error instanceof ApiError ? error.detail : undefined);
        }
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <Text size="sm">{wording.consequence(receipt.number)}</Text>
        <Textarea
          label="Reason"
          required
          rows={3}
          maxLength={500}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        {refusal ? (
          <Alert color="red" variant="light" title={`Receipt n° ${receipt.number} was not changed`}>
            <Text size="sm">{refusal}</Text>
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={mutation.isPending}>
            {refusal ? 'Close' : 'Keep it'}
          </Button>
          <Button
            type="submit"
            color={change === 'cancel' ? 'red' : undefined}
            loading={mutation.isPending}
            disabled={refusal !== null}
          >
            {wording.confirm}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
