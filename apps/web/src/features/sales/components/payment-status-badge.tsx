import { type PaymentStatus, paymentStatusSchema } from '@back-office/contract/sales';
import { Badge } from '@mantine/core';

/** How each payment status of an issued invoice reads (not in the spec; docs/decisions/032). */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  unpaid: 'Unpaid',
  partiallyPaid: 'Partially paid',
  paid: 'Paid',
  overdue: 'Overdue',
};

const PAYMENT_STATUS_COLORS: Record<PaymentStatus, string> = {
  unpaid: 'gray',
  partiallyPaid: 'yellow',
  paid: 'green',
  overdue: 'red',
};

/** The Payment status select's value for "any status" (a Select option cannot be the empty string). */
export const ANY_PAYMENT_STATUS = 'any';

/** The options of the search form's Payment status select: any, then each status. */
export const PAYMENT_STATUS_OPTIONS = [
  { value: ANY_PAYMENT_STATUS, label: 'Any' },
  ...paymentStatusSchema.options.map((status) => ({ value: status, label: PAYMENT_STATUS_LABELS[status] })),
];

/** The select's value as a filter: a status, or `''` for any. */
export function paymentStatusFromOption(value: string | null): PaymentStatus | '' {
  const status = paymentStatusSchema.safeParse(value);
  return status.success ? status.data : '';
}

/**
 * The payment status of an issued invoice as a badge (Unpaid grey, Partially paid yellow, Paid green,
 * Overdue red); nothing when the status is null (invoice not issued, or the sale cancelled).
 */
export function PaymentStatusBadge({ status }: { status: PaymentStatus | null }) {
  if (status === null) return null;
  return (
    <Badge color={PAYMENT_STATUS_COLORS[status]} variant="light" style={{ overflow: 'visible' }}>
      {PAYMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
