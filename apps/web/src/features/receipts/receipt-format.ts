import type { ReceiptChainCheck, ReceiptStatus, RegisteredReceipt } from '@back-office/contract/receipts';
import { organisationToday } from '../../lib/calendar.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';

/** A status with the colour of its dot badge (the text says it, the colour only adds to it). */
export const RECEIPT_STATUS_LABELS: Record<ReceiptStatus, { label: string; color: string }> = {
  issued: { label: 'Issued', color: 'green' },
  cancelled: { label: 'Cancelled', color: 'red' },
};

/** How many hex digits of a receipt's hash the register shows (the full hash is in its title). */
const SHORT_HASH_DIGITS = 12;

/** The day a receipt was issued, where the organisation is, the French way: `07/03/2026`. */
export function issuedOnText(issuedAt: string): string {
  const date = new Date(issuedAt);
  if (Number.isNaN(date.getTime())) return '';
  const [year, month, day] = organisationToday(date).split('-');
  return `${day}/${month}/${year}`;
}

/** An amount with its currency symbol in French format: `125,50 €`, `1 300,00 CHF`. */
export function receiptAmountText(receipt: Pick<RegisteredReceipt, 'amount' | 'currency'>): string {
  return `${formatMoney(receipt.amount)} ${receipt.currency}`;
}

/** The first 12 hex digits of a receipt's hash. */
export function shortHash(hash: string): string {
  return hash.slice(0, SHORT_HASH_DIGITS);
}

/** What links a receipt to others: `replaces n° 12`, `replaced by n° 14` (both for a replaced replacement). */
export function receiptLinksText(receipt: Pick<RegisteredReceipt, 'replaces' | 'replacedBy'>): string {
  const parts: string[] = [];
  if (receipt.replaces !== undefined) parts.push(`replaces n° ${receipt.replaces}`);
  if (receipt.replacedBy !== undefined) parts.push(`replaced by n° ${receipt.replacedBy}`);
  return parts.join(', ');
}

/** `1 receipt`, `1 234 receipts` (French number format). */
export function receiptCountText(count: number): string {
  return count === 1 ? '1 receipt' : `${formatNumber(count)} receipts`;
}

/** The success toast of a cancel. */
export function receiptCancelledMessage(number: number): string {
  return `Receipt n° ${number} cancelled.`;
}

/** The success toast of a replace: the new receipt's number and the one it replaces. */
export function receiptReplacedMessage(newNumber: number, oldNumber: number): string {
  return `Receipt n° ${newNumber} issued to replace n° ${oldNumber}.`;
}

/** The sentence of a register check: whole, or where it breaks and why. */
export function verifyOutcomeText(check: ReceiptChainCheck): string {
  if (check.ok) {
    return `The register is whole: ${receiptCountText(check.checked)} checked, every hash matches.`;
  }
  const at = check.firstBreak;
  return at
    ? `The register was altered at receipt n° ${at.number}: ${at.reason}`
    : 'The register was altered.';
}
