import { recordPaymentSchema, type Sale, type SaleSummary } from '@back-office/contract/sales';
import { Alert, Button, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { useState } from 'react';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { DateField } from '../../../components/date-field.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { formatMoney } from '../../../lib/format.ts';
import { frenchDay } from '../../../lib/french-date.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSale } from '../api/get-sale.ts';
import { useRecordPayment } from '../api/record-payment.ts';
import { useSendReminder } from '../api/send-reminder.ts';
import { PaymentStatusBadge } from './payment-status-badge.tsx';

type PaymentValues = { date: string; amount: number | '' };

/** The day (not in the future) and amount (more than 0, 2 decimals): the contract's rules, as the server checks them. */
const validatePayment = schemaValidator(recordPaymentSchema);

/** An amount of the sale's currency, French format: `1 234,50 €`. */
function moneyText(amount: number, currencySymbol: string): string {
  return `${formatMoney(amount)} ${currencySymbol}`;
}

/** What remains to pay on the sale, in cents' precision (never below 0). */
function remainingOf(sale: Sale): number {
  return Math.max(0, Math.round((sale.total - sale.paidAmount) * 100) / 100);
}

/** The success toast of a recorded payment. */
export function paymentRecordedMessage(ref: number, amount: number, currencySymbol: string): string {
  return `A payment of ${moneyText(amount, currencySymbol)} was recorded for the sale #${ref}!`;
}

type SalePaymentsModalProps = {
  /** The sale whose payments are shown; null closes the dialog. */
  sale: SaleSummary | null;
  onClose: () => void;
};

/**
 * The payments of a sale whose invoice was issued (not in the spec; docs/decisions/032), read fresh
 * with `GET /api/sales/{id}`: its payment status, total, due date (`dd/mm/yyyy`), amount paid and what
 * remains, the payments (date, amount, manual or from a bank statement), and, until it is paid, the
 * Record payment form: a French date (today by default, not in the future) and the amount (what remains
 * by default, decimal comma). The dialog stays open with a busy button until the server answers; its
 * refusals go under the fields.
 */
export function SalePaymentsModal({ sale, onClose }: SalePaymentsModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened={sale !== null}
      title={sale ? `Payments of sale #${sale.ref}` : 'Payments'}
      busy={busy}
      size="lg"
      onClose={onClose}
    >
      {sale ? <SalePayments id={sale.id} onBusyChange={setBusy} onDone={onClose} /> : null}
    </FormModal>
  );
}

function SalePayments({
  id,
  onBusyChange,
  onDone,
}: {
  id: number;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const detail = useSale(id);
  if (detail.isPending) return <Loader size="sm" aria-label="Loading the sale..." />;
  if (detail.isError) return <Alert color="red">The sale could not be loaded.</Alert>;
  const sale = detail.data;
  return (
    <Stack gap="md">
      <SalePaymentSummary sale={sale} />
      <PaymentsTable sale={sale} />
      <Reminders sale={sale} />
      {sale.paymentStatus !== null && sale.paymentStatus !== 'paid' ? (
        <RecordPaymentForm sale={sale} onBusyChange={onBusyChange} onDone={onDone} />
      ) : (
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** Status, total, due date, paid and remaining amounts, and the reference the buyer quotes. */
function SalePaymentSummary({ sale }: { sale: Sale }) {
  const items: Array<[string, string]> = [
    ['Total', moneyText(sale.total, sale.currencySymbol)],
    ['Due date', sale.dueDate ? frenchDay(sale.dueDate) : '-'],
    ['Paid', moneyText(sale.paidAmount, sale.currencySymbol)],
    ['Remaining', moneyText(remainingOf(sale), sale.currencySymbol)],
  ];
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          Payment status
        </Text>
        {sale.paymentStatus === null ? (
          <Text size="sm">The invoice is not issued: nothing is due yet.</Text>
        ) : (
          <PaymentStatusBadge status={sale.paymentStatus} />
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" component="dl" m={0}>
        {items.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" size="sm" m={0}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {sale.paymentReference ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Reference: {sale.paymentReference}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The success toast of a reminder sent. */
export function reminderSentMessage(ref: number, level: number): string {
  return `Payment reminder n° ${level} of the sale #${ref} was emailed to the buyer!`;
}

/**
 * The reminders of the invoice (docs/decisions/034): how many were emailed and the day of the last
 * (`dd/mm/yyyy`), and, while it is overdue, "Send a reminder", which emails the buyer the invoice
 * again; the server's refusal (too soon, no email address) is said in the toast.
 */
function Reminders({ sale }: { sale: Sale }) {
  const send = useSendReminder();
  if (sale.paymentStatus !== 'overdue' && sale.reminderLevel === 0) return null;
  const sent =
    sale.reminderLevel === 0
      ? 'No reminder sent yet.'
      : `${sale.reminderLevel} reminder${sale.reminderLevel > 1 ? 's' : ''} sent, the last on ${
          sale.lastReminderOn ? frenchDay(sale.lastReminderOn) : '-'
        }.`;
  const remind = async () => {
    try {
      const answered = await send.mutateAsync(sale.id);
      notifySuccess(reminderSentMessage(sale.ref, answered.reminderLevel));
    } catch (error) {
      notifyError(
        'sending the reminder',
        error instanceof ApiError && error.status < 500 ? error.detail : undefined,
      );
    }
  };
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm">{sent}</Text>
      {sale.paymentStatus === 'overdue' ? (
        <Button variant="light" onClick={remind} loading={send.isPending}>
          Send a reminder
        </Button>
      ) : null}
    </Group>
  );
}

/** The payments, oldest first: date `dd/mm/yyyy`, amount, Manual or From a bank statement. */
function PaymentsTable({ sale }: { sale: Sale }) {
  if (sale.payments.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No payment recorded yet.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table striped verticalSpacing="xs" aria-label="Payments">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Source</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sale.payments.map((payment) => (
            <Table.Tr key={payment.id}>
              <Table.Td>{frenchDay(payment.date)}</Table.Td>
              <Table.Td ta="right">{moneyText(payment.amount, sale.currencySymbol)}</Table.Td>
              <Table.Td>{payment.source === 'manual' ? 'Manual' : 'From a bank statement'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function RecordPaymentForm({
  sale,
  onBusyChange,
  onDone,
}: {
  sale: Sale;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const recordPayment = useRecordPayment();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<PaymentValues>({
    initialValues: { date: dayjs().format('YYYY-MM-DD'), amount: remainingOf(sale) || '' },
    validate: validatePayment,
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      if (values.amount === '') return;
      onBusyChange(true);
      try {
        await recordPayment.mutateAsync({ id: sale.id, date: values.date, amount: values.amount });
        onBusyChange(false);
        notifySuccess(paymentRecordedMessage(sale.ref, values.amount, sale.currencySymbol));
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (serverError.show(error, form.setFieldError)) return;
        notifyError(
          'recording the payment',
          error instanceof ApiError && error.status < 500 ? error.detail : undefined,
        );
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form
      ref={serverError.formRef}
      onSubmit={handleSubmit}
      noValidate
      aria-label="Record payment"
      {...blurGuard.formProps}
    >
      <Stack gap="md">
        <Title order={3} size="h5">
          Record payment
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DateField
            label="Date"
            required
            clearable={false}
            data-autofocus
            {...form.getInputProps('date')}
            value={form.values.date}
          />
          <CurrencyInput
            label={`Amount (${sale.currencySymbol})`}
            prefix=""
            required
            {...form.getInputProps('amount')}
          />
        </SimpleGrid>
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={recordPayment.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={recordPayment.isPending}>
            Record payment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
