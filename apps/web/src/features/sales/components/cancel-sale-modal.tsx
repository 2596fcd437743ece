import { cancelSaleInputSchema, type SaleSummary } from '@back-office/contract/sales';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCancelSale } from '../api/cancel-sale.ts';

type CancelValues = { reason: string };

/** The reason is required, at most 500 characters: the contract's rule, as the server checks it. */
const validateCancel = schemaValidator(cancelSaleInputSchema);

/** The success toast of a cancel: the credit note's number. */
export function cancelledMessage(ref: number, creditNoteNumber: number): string {
  return `Sale #${ref} was cancelled by the credit note n° ${creditNoteNumber}!`;
}

type CancelSaleModalProps = {
  /** The sale being cancelled; null closes the dialog. */
  sale: SaleSummary | null;
  onClose: () => void;
};

/**
 * The Cancel sale dialog of the Sales list: a sale whose invoice was issued cannot be removed; it is
 * cancelled by a credit note, which needs a reason (printed on it). The dialog stays open with a
 * busy button until the server answers; a cancel someone else did first is said as such.
 */
export function CancelSaleModal({ sale, onClose }: CancelSaleModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={sale !== null} title="Cancel sale" busy={busy} onClose={onClose}>
      {sale ? <CancelSaleForm sale={sale} onDone={onClose} onBusyChange={setBusy} /> : null}
    </FormModal>
  );
}

function CancelSaleForm({
  sale,
  onDone,
  onBusyChange,
}: {
  sale: SaleSummary;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const cancelSale = useCancelSale();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<CancelValues>({
    initialValues: { reason: '' },
    validate: validateCancel,
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
        const creditNote = await cancelSale.mutateAsync({ id: sale.id, reason: values.reason.trim() });
        onBusyChange(false);
        notifySuccess(cancelledMessage(sale.ref, creditNote.creditNoteNumber));
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (error instanceof ApiError && error.code === 'sales.already_cancelled') {
          notifyError('cancelling the sale', 'This sale was already cancelled.');
          onDone();
          return;
        }
        if (!serverError.show(error, form.setFieldError)) {
          notifyError('cancelling the sale');
        }
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <Text size="sm">
          The invoice n° {sale.ref} was issued: a credit note with its own number will cancel it, and the
          items go back in stock.
        </Text>
        <Textarea label="Reason" required rows={3} data-autofocus {...form.getInputProps('reason')} />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={cancelSale.isPending}>
            Keep the sale
          </Button>
          <Button type="submit" color="red" loading={cancelSale.isPending}>
            Cancel the sale
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
