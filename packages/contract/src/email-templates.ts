import { plainString } from './common.ts';

/**
 * The templates of the emails sent to subscribers (not in the spec; part 2 §7 Donations and §7
 * Subscribers send them): French by default, editable by an Administrator in the settings. A template
 * is plain text with `{placeholder}`s; each one allows only the placeholders listed here, and the
 * schema refuses any other (400 naming the field and the placeholder, the same message in the form).
 */

/** Placeholders every template to a subscriber may use. */
const PERSON = ['title', 'firstName', 'lastName', 'organisationName'] as const;
/** Placeholders of the receipt emails. */
const RECEIPT = [...PERSON, 'signatoryName', 'signatoryTitle', 'year'] as const;

/** Placeholders of the payment reminder of an invoice (docs/decisions/034). */
const REMINDER = [...PERSON, 'invoiceNumber', 'amountDue', 'dueDate', 'reminderNumber'] as const;

/** The placeholders each template field allows. */
export const EMAIL_TEMPLATE_PLACEHOLDERS = {
  receiptEmailSubject: [...RECEIPT, 'receiptNumber'],
  receiptEmailText: [...RECEIPT, 'receiptNumber'],
  annualReceiptEmailSubject: RECEIPT,
  annualReceiptEmailText: RECEIPT,
  brochureEmailSubject: PERSON,
  brochureEmailText: PERSON,
  bulkEmailFooter: ['organisationName', 'unsubscribeLink'],
  reminderEmailSubject: REMINDER,
  reminderEmailText: REMINDER,
} as const satisfies Record<string, readonly string[]>;

export type EmailTemplateField = keyof typeof EMAIL_TEMPLATE_PLACEHOLDERS;

/** The French texts used while the settings leave a template empty (or after "Restore default"). */
export const DEFAULT_EMAIL_TEMPLATES: Record<EmailTemplateField, string> = {
  receiptEmailSubject: 'Reçu fiscal n° {receiptNumber}',
  receiptEmailText: `Bonjour {title} {firstName} {lastName},

Veuillez trouver ci-joint le reçu fiscal n° {receiptNumber} de votre don.

Merci pour votre soutien à {organisationName}.

{signatoryName}
{signatoryTitle}`,
  annualReceiptEmailSubject: 'Reçu fiscal {year}',
  annualReceiptEmailText: `Bonjour {title} {firstName} {lastName},

Veuillez trouver ci-joint votre reçu fiscal récapitulatif des dons de l'année {year}.

Merci pour votre soutien à {organisationName}.

{signatoryName}
{signatoryTitle}`,
  brochureEmailSubject: 'Brochure retournée',
  brochureEmailText: `Bonjour {title} {firstName} {lastName},

La brochure que nous vous avons adressée nous a été retournée : elle n'a pas pu être distribuée à l'adresse que nous avons pour vous.

Pourriez-vous nous indiquer votre adresse postale actuelle en répondant simplement à ce message ? Nous pourrons ainsi continuer à vous envoyer nos publications.

Avec nos remerciements et nos meilleures salutations,

{organisationName}`,
  bulkEmailFooter: `--
Vous recevez ce message car vous êtes inscrit(e) auprès de {organisationName}.
Pour ne plus recevoir ces messages : {unsubscribeLink}`,
  reminderEmailSubject: 'Relance : facture n° {invoiceNumber}',
  reminderEmailText: `Bonjour {title} {firstName} {lastName},

Sauf erreur de notre part, la facture n° {invoiceNumber}, échue le {dueDate}, reste impayée : {amountDue} restent à régler.

Vous la trouverez ci-jointe, avec ses informations de paiement. Si vous avez réglé cette somme entre-temps, merci de ne pas tenir compte de ce message.

Avec nos meilleures salutations,

{organisationName}`,
};

export const EMAIL_TEMPLATE_FIELDS = Object.keys(EMAIL_TEMPLATE_PLACEHOLDERS) as EmailTemplateField[];

const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholders written in `template`, in order, each once. */
export function placeholdersOf(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(PLACEHOLDER), (match) => match[1] ?? ''))];
}

/** The message naming a placeholder a template does not allow, e.g. `Unknown placeholder {foo}: use {title}, …`. */
export function unknownPlaceholderMessage(field: EmailTemplateField, placeholder: string): string {
  const allowed = EMAIL_TEMPLATE_PLACEHOLDERS[field].map((name) => `{${name}}`).join(', ');
  return `Unknown placeholder {${placeholder}}: use ${allowed}.`;
}

/** Why the group email footer is refused without its link (the law wants a way to unsubscribe). */
export const FOOTER_NEEDS_LINK_MESSAGE = 'The footer must contain {unsubscribeLink}.';

/**
 * The schema of one template field: text up to `max` characters whose placeholders are all allowed
 * for `field`; empty means the default. The group email footer must keep `{unsubscribeLink}`.
 */
export function emailTemplateSchema(field: EmailTemplateField, max: number) {
  return plainString()
    .trim()
    .max(max, { message: `At most ${max} characters.` })
    .superRefine((value, context) => {
      const allowed: readonly string[] = EMAIL_TEMPLATE_PLACEHOLDERS[field];
      for (const name of placeholdersOf(value)) {
        if (!allowed.includes(name)) {
          context.addIssue({ code: 'custom', message: unknownPlaceholderMessage(field, name) });
        }
      }
      if (field === 'bulkEmailFooter' && value !== '' && !value.includes('{unsubscribeLink}')) {
        context.addIssue({ code: 'custom', message: FOOTER_NEEDS_LINK_MESSAGE });
      }
    });
}

/** The values a template is filled with; a placeholder without a value stays as written. */
export type TemplateValues = Partial<Record<string, string>>;

/**
 * `template` with each `{placeholder}` replaced by its value; spaces doubled by an empty value (no
 * title) are collapsed and lines trimmed, so "Bonjour {title} {firstName}" reads "Bonjour Anne".
 */
export function fillTemplate(template: string, values: TemplateValues): string {
  return template
    .replace(PLACEHOLDER, (placeholder, name: string) => values[name] ?? placeholder)
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/^[ \t]+|[ \t]+$/gm, '');
}

/** The template as used: the settings' text, or the default when it is empty. */
export function templateOrDefault(field: EmailTemplateField, value: string | undefined): string {
  return value?.trim() ? value : DEFAULT_EMAIL_TEMPLATES[field];
}
