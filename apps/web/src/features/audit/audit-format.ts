import type {
  AuditAction,
  AuditEntityType,
  AuditEvent,
  AuditValue,
  AuditValues,
} from '@back-office/contract/audit';
import type { ReferenceListKey } from '@back-office/contract/reference-lists';
import dayjs from 'dayjs';
import { formatMoney } from '../../lib/format.ts';

/** The kinds of record offered by the entity filter, in menu order. */
export const ENTITY_TYPE_LABELS: Record<AuditEntityType, string> = {
  user: 'User',
  product: 'Product',
  reference_list_item: 'Reference list item',
  settings: 'Settings',
  sign_in: 'Sign-in',
  subscriber: 'Subscriber',
};

/** A reference item is named by its list (as in the Admin menu, singular). */
const LIST_LABELS: Record<ReferenceListKey, string> = {
  subs: 'Subscription Type',
  cats: 'Category',
  ctries: 'Country',
  pmethods: 'Payment Method',
  currencies: 'Currency',
  tags: 'Tag',
};

const ACTION_LABELS: Record<AuditAction, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  role_changed: 'Role changed',
  password_changed: 'Password changed',
  sign_in_locked: 'Sign-in locked',
  personal_data_exported: 'Personal data downloaded',
  anonymised: 'Anonymised',
  personal_data_purged: 'Personal data purged',
};

/**
 * Field names as the screens label them, in the order the forms show them (the database keeps the
 * values as jsonb, which does not keep key order); others are split from camelCase and come last.
 */
const FIELD_LABELS: Record<string, string> = {
  fullName: 'Full Name',
  email: 'Email',
  role: 'Role',
  name: 'Name',
  euroPrice: 'Price (Euro)',
  swissPrice: 'Price (Swiss)',
  active: 'Active',
  currentStock: 'Stock',
  minStockAlert: 'Min Stock',
  symbol: 'Symbol',
  order: 'Order',
  directDebit: 'Direct debit',
  organisationName: 'Organisation name',
  address: 'Address',
  emailSenderName: 'Email sender name',
  emailSenderAddress: 'Email sender address',
  sirenOrRna: 'SIREN or RNA',
  sepaCreditorId: 'SEPA creditor id',
  signatoryName: 'Signatory name',
  signatoryTitle: 'Signatory title',
  organisationPurpose: 'Organisation purpose',
  receiptStatement: 'Receipt statement',
  invoiceFooter: 'Invoice footer',
  paymentTermsText: 'Payment terms',
  receiptEmailSubject: 'Receipt email subject',
  receiptEmailText: 'Receipt email text',
  annualReceiptEmailSubject: 'Annual receipt email subject',
  annualReceiptEmailText: 'Annual receipt email text',
  brochureEmailSubject: 'Brochure email subject',
  brochureEmailText: 'Brochure email text',
  bulkEmailFooter: 'Group email footer',
  reminderEmailSubject: 'Reminder email subject',
  reminderEmailText: 'Reminder email text',
  reminderIntervalDays: 'Days between reminders',
  logo: 'Logo',
  documentRetentionYears: 'Document retention (years)',
  inactivityReportYears: 'Inactivity report (years)',
  receiptForOtherCountries: 'Receipt for other countries',
  addressStreet: 'Street',
  addressBuildingNumber: 'Building number',
  addressPostcode: 'Postcode',
  addressTown: 'Town',
  addressCountry: 'Country',
  signatureImage: 'Signature image',
  isoCode: 'ISO code',
  reason: 'Reason',
};

const MONEY_FIELDS = new Set(['euroPrice', 'swissPrice']);
const numberFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 });

/** When the change was made, in the browser's time: `dd/MM/yyyy HH:mm` (French order). */
export function auditDateTimeText(occurredAt: string): string {
  const date = dayjs(occurredAt);
  return date.isValid() ? date.format('DD/MM/YYYY HH:mm') : '';
}

/** Who made it: their name at the time, or "System" (first start). */
export function auditActorText(event: AuditEvent): string {
  return event.actor ? event.actor.name || event.actor.email : 'System';
}

export function auditActionText(action: AuditAction): string {
  return ACTION_LABELS[action];
}

/** The kind of record: "Product", "User", "Country" (a reference item's list), "Settings". */
export function auditEntityKindText(event: AuditEvent): string {
  if (event.entityType === 'reference_list_item' && event.entityList) return LIST_LABELS[event.entityList];
  return ENTITY_TYPE_LABELS[event.entityType];
}

export function auditFieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known;
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value as people read it: Yes/No, prices with 2 decimals in French format, "(empty)" for nothing. */
export function auditValueText(field: string, value: AuditValue | undefined): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number')
    return MONEY_FIELDS.has(field) ? formatMoney(value) : numberFormat.format(value);
  return value;
}

/** One changed field: its label and its value before and after (null when the side does not exist). */
export type AuditFieldChange = { field: string; label: string; before: string | null; after: string | null };

const fieldsOf = (values: AuditValues | null) => (values ? Object.keys(values) : []);
const FIELD_ORDER = Object.keys(FIELD_LABELS);
const fieldRank = (field: string) => {
  const rank = FIELD_ORDER.indexOf(field);
  return rank === -1 ? FIELD_ORDER.length : rank;
};
const byFormOrder = (a: string, b: string) => fieldRank(a) - fieldRank(b) || a.localeCompare(b);

/**
 * The fields an event carries, in the forms' order: an update's changed fields with both values, a
 * creation's values (after only), a deletion's (before only). Empty for a password change.
 */
export function auditFieldChanges(event: AuditEvent): AuditFieldChange[] {
  const fields = [...new Set([...fieldsOf(event.before), ...fieldsOf(event.after)])].sort(byFormOrder);
  return fields.map((field) => ({
    field,
    label: auditFieldLabel(field),
    before: event.before ? auditValueText(field, event.before[field]) : null,
    after: event.after ? auditValueText(field, event.after[field]) : null,
  }));
}

/** One line per field, e.g. `Name: Calendrier 2027 → Calendrier 2028` (multi-line texts on one line). */
export function auditChangeLines(event: AuditEvent): string[] {
  const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' / ');
  return auditFieldChanges(event).map(({ label, before, after }) => {
    if (before !== null && after !== null) return `${label}: ${oneLine(before)} → ${oneLine(after)}`;
    return `${label}: ${oneLine(after ?? before ?? '')}`;
  });
}
