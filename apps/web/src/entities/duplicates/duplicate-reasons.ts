import type { DuplicateReason } from '@back-office/contract/duplicates';

const REASON_LABELS: Record<DuplicateReason, string> = {
  email: 'same email',
  iban: 'same IBAN',
  phone: 'same phone number',
  'name+postcode': 'similar name and same postcode',
  'name+town': 'similar name in the same town',
};

/** Why two subscribers look alike, e.g. "Same email, similar name and same postcode". */
export function duplicateReasonsText(reasons: readonly DuplicateReason[]): string {
  const text = reasons.map((reason) => REASON_LABELS[reason] ?? reason).join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
