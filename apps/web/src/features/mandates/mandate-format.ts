import type { MandateStatus, MandateType } from '@back-office/contract/mandates';

/** An IBAN in groups of 4 characters, as printed on statements: `FR76 3000 6000 …`. */
export function formatIban(iban: string): string {
  return iban.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** The words of each type of mandate. */
export const MANDATE_TYPE_LABELS: Record<MandateType, string> = {
  recurring: 'Recurring',
  oneOff: 'One-off',
};

/** The words and badge colour of each status. */
export const MANDATE_STATUS_BADGES: Record<MandateStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'green' },
  revoked: { label: 'Revoked', color: 'red' },
  expired: { label: 'Expired', color: 'gray' },
  suspended: { label: 'Suspended', color: 'orange' },
};
