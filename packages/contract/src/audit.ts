import { z } from 'zod';
import { isIsoDate, plainString } from './common.ts';
import { REFERENCE_LIST_KEYS } from './reference-lists.ts';

/**
 * The audit trail (not in the spec): who changed which user, role, product, reference item
 * or setting, when, and the values before and after. Read by Administrators on the Audit screen.
 */

/** What an audit event is about. A reference item also names its list (`entityList`). */
export const AUDIT_ENTITY_TYPES = [
  'user',
  'product',
  'reference_list_item',
  'settings',
  'sign_in',
  'subscriber',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/**
 * What was done. `role_changed` is an update of a user that changed the role (other fields may have
 * changed with it); `password_changed` carries no values, only the fact; `sign_in_locked` is a
 * sign-in lockout (docs/decisions/011), its `after` saying which email and address, until when.
 * On a subscriber (docs/decisions/019; named "Subscriber <id>", never by name): `personal_data_exported`
 * is a download of their personal data, `anonymised` the erasure of their identity (`after.reason`),
 * `personal_data_purged` the removal, past retention, of what their kept documents still carried.
 */
export const AUDIT_ACTIONS = [
  'created',
  'updated',
  'deleted',
  'role_changed',
  'password_changed',
  'sign_in_locked',
  'personal_data_exported',
  'anonymised',
  'personal_data_purged',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One recorded field value: texts, numbers (prices in units), yes/no, or nothing. */
export const auditValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type AuditValue = z.infer<typeof auditValueSchema>;

/** Field name -> value. Never a password hash or token; a logo is described (type, size, fingerprint), not stored. */
export const auditValuesSchema = z.record(z.string(), auditValueSchema);
export type AuditValues = z.infer<typeof auditValuesSchema>;

/**
 * One change. `occurredAt` is an ISO 8601 timestamp. `actor` is who did it as they were then (name and
 * email are copies, kept when the account is later renamed or deleted), or null for the system
 * (first start). `before` is null for a creation, `after` null for a deletion; an update carries only
 * the fields that changed, in both.
 */
export const auditEventSchema = z.object({
  id: z.number().int().positive(),
  occurredAt: z.string(),
  actor: z
    .object({
      id: z.number().int().positive(),
      name: z.string(),
      email: z.string(),
    })
    .nullable(),
  entityType: z.enum(AUDIT_ENTITY_TYPES),
  /** The reference list of a `reference_list_item` (`ctries`, `tags`, ...), else null. */
  entityList: z.enum(REFERENCE_LIST_KEYS).nullable(),
  entityId: z.number().int().nullable(),
  /** The entity's name at the time (user's full name, product or item name, "Organisation settings"). */
  entityLabel: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  before: auditValuesSchema.nullable(),
  after: auditValuesSchema.nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

const optionalDate = z
  .string()
  .optional()
  .refine((value) => !value || isIsoDate(value), { message: 'Dates are written YYYY-MM-DD.' });

/**
 * `GET /api/audit` query. `entityType` one kind (empty = all); `actor` part of the actor's name or
 * email, case-insensitive; `from` and `to` days `YYYY-MM-DD` of the organisation's time zone
 * (`ORG_TIMEZONE`, docs/decisions/012), both included; paging as every search ("Paging" in
 * docs/spec/design.md §Contract decisions the spec leaves open).
 */
export const auditSearchQuerySchema = z
  .object({
    entityType: z
      .union([z.literal(''), z.enum(AUDIT_ENTITY_TYPES, { message: 'Choose a kind of record.' })])
      .optional(),
    actor: plainString().trim().max(200, { message: 'At most 200 characters.' }).optional(),
    from: optionalDate,
    to: optionalDate,
    listfrom: z.coerce.number().int().min(1).default(1),
    listlength: z.coerce.number().int().min(1).max(500).default(50),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'The start date must not be after the end date.',
    path: ['to'],
  });
export type AuditSearchQuery = z.infer<typeof auditSearchQuerySchema>;

/** `GET /api/audit` answer: the number of matching events and one page of them, newest first. */
export const auditSearchResultSchema = z.object({
  count: z.number().int().min(0),
  models: z.array(auditEventSchema),
});
export type AuditSearchResult = z.infer<typeof auditSearchResultSchema>;
