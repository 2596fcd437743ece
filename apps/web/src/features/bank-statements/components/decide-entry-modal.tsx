import type { AssignStatementEntry, BankStatementEntry } from '@back-office/contract/bank-statements';
import { Button, Group, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useAssignStatementEntry } from '../api/assign-statement-entry.ts';
import { findSaleByRef } from '../api/find-sale-by-ref.ts';
import { entryAmountText, entryDateText } from '../bank-statement-format.ts';

/** What a person decides for an entry of the review queue. */
export type EntryDecision = 'payment' | 'donation' | 'dismiss';

const TITLES: Record<EntryDecision, string> = {
  payment: 'Pay an invoice',
  donation: 'Record as donation',
  dismiss: 'Dismiss',
};

/** The message under Sale reference when no sale has the number typed. */
export const NO_SUCH_SALE_MESSAGE = 'No sale has this reference.';

type DecideEntryModalProps = {
  /** The entry and what to make of it; null closes the dialog. */
  deciding: { entry: BankStatementEntry; decision: EntryDecision } | null;
  onClose: () => void;
};

/**
 * The dialog that decides an unmatched credit of the review queue (not in the spec; docs/decisions/033):
 * - Pay an invoice: the sale's reference (the invoice number), looked up among the sales, then the
 *   entry becomes a payment of its invoice (in the invoice's currency, at most what remains to pay);
 * - Record as donation: of the subscriber whose id is given, or when left empty of the subscriber
 *   whose IBAN the debtor's is;
 * - Dismiss: nothing is recorded; the reason (1-500 characters) is kept.
 * The dialog stays open with a busy button until the server answers; its field errors go under the
 * fields (`saleId` under Sale reference), its other refusals in an error toast with its sentence.
 */
export function DecideEntryModal({ deciding, onClose }: DecideEntryModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened={deciding !== null}
      title={deciding ? TITLES[deciding.decision] : ''}
      busy={busy}
      onClose={onClose}
    >
      {deciding ? (
        <DecideEntryForm
          entry={deciding.entry}
          decision={deciding.decision}
          onBusyChange={setBusy}
          onDone={onClose}
        />
      ) : null}
    </FormModal>
  );
}

type DecideValues = { saleRef: number | string; subscriberId: number | string; reason: string };

function validateFor(decision: EntryDecision) {
  return (values: DecideValues) => ({
    saleRef:
      decision === 'payment' && !(typeof values.saleRef === 'number' && values.saleRef > 0)
        ? 'Give the reference of the sale.'
        : null,
    subscriberId:
      decision === 'donation' && values.subscriberId !== '' && !(Number(values.subscriberId) > 0)
        ? 'Choose the subscriber.'
        : null,
    reason:
      decision === 'dismiss' && values.reason.trim() === ''
        ? 'Give the reason.'
        : decision === 'dismiss' && values.reason.trim().length > 500
          ? 'At most 500 characters.'
          : null,
  });
}

/** The form field under which a field error of the server goes. */
function fieldOf(path: string): string | null {
  if (path === 'saleId') return 'saleRef';
  if (path === 'subscriberId') return 'subscriberId';
  if (path === 'dismiss') return 'reason';
  return null;
}

/** The server's own sentence for a refusal it did not pin on a field of the form. */
function refusalReason(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status >= 500) return undefined;
  return error.errors[0]?.message ?? error.detail;
}

function decidedMessage(
  entry: BankStatementEntry,
  decided: BankStatementEntry,
  decision: EntryDecision,
): string {
  const what = `The entry of ${entryAmountText(entry)}`;
  if (decision === 'payment') {
    return `${what} was recorded as a payment of the sale #${decided.saleRef ?? decided.saleId ?? ''}!`;
  }
  if (decision === 'donation') return `${what} was recorded as a donation!`;
  return `${what} was dismissed!`;
}

function DecideEntryForm({
  entry,
  decision,
  onBusyChange,
  onDone,
}: {
  entry: BankStatementEntry;
  decision: EntryDecision;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const assign = useAssignStatementEntry();
  const [finding, setFinding] = useState(false);
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<DecideValues>({
    initialValues: { saleRef: '', subscriberId: '', reason: '' },
    validate: validateFor(decision),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();
  const pending = assign.isPending || finding;

  /** The body of the call, or null when the sale typed does not exist (said under its field). */
  const decisionBody = async (values: DecideValues): Promise<AssignStatementEntry | null> => {
    if (decision === 'dismiss') return { dismiss: values.reason.trim() };
    if (decision === 'donation') {
      return values.subscriberId === ''
        ? { as: 'donation' }
        : { as: 'donation', subscriberId: Number(values.subscriberId) };
    }
    setFinding(true);
    try {
      const sale = await findSaleByRef(Number(values.saleRef));
      if (!sale) {
        serverError.showFields([{ path: 'saleRef', message: NO_SUCH_SALE_MESSAGE }], form.setFieldError);
        return null;
      }
      return { as: 'payment', saleId: sale.id };
    } finally {
      setFinding(false);
    }
  };

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      onBusyChange(true);
      try {
        const body = await decisionBody(values);
        if (!body) return;
        const decided = await assign.mutateAsync({ id: entry.id, decision: body });
        notifySuccess(decidedMessage(entry, decided, decision));
        onDone();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'bank_statements.decided') {
          notifyError('deciding the entry', error.detail ?? 'This entry was decided already.');
          onDone();
          return;
        }
        if (!serverError.show(error, form.setFieldError, fieldOf)) {
          notifyError('deciding the entry', refusalReason(error));
        }
      } finally {
        onBusyChange(false);
      }
    },
    () => setSubmittedInvalid(true),
  );

  let fields: ReactNode;
  if (decision === 'payment') {
    fields = (
      <NumberInput
        label="Sale reference"
        description="The number of the invoice (the sale's Ref)."
        required
        allowDecimal={false}
        allowNegative={false}
        hideControls
        data-autofocus
        {...form.getInputProps('saleRef')}
      />
    );
  } else if (decision === 'donation') {
    fields = (
      <NumberInput
        label="Subscriber id"
        description="Leave empty for the subscriber whose IBAN it is."
        allowDecimal={false}
        allowNegative={false}
        hideControls
        data-autofocus
        {...form.getInputProps('subscriberId')}
      />
    );
  } else {
    fields = <Textarea label="Reason" required rows={3} data-autofocus {...form.getInputProps('reason')} />;
  }

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {entryAmountText(entry)} booked on {entryDateText(entry)}
          {entry.debtorName ? ` from ${entry.debtorName}` : ''}
          {entry.debtorIban ? ` (${entry.debtorIban})` : ''}.
        </Text>
        {fields}
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending} color={decision === 'dismiss' ? 'red' : undefined}>
            {TITLES[decision]}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
