import { createHash } from 'node:crypto';
import type { AuditValues } from '@back-office/contract/audit';
import { DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import {
  DEFAULT_EMAIL_TEMPLATES,
  EMAIL_TEMPLATE_FIELDS,
  type EmailTemplateField,
  templateOrDefault,
} from '@back-office/contract/email-templates';
import {
  type ImageMessages,
  LOGO_MESSAGES,
  type Settings,
  SIGNATURE_IMAGE_MESSAGES,
} from '@back-office/contract/settings';
import { electronicFormatIBAN } from 'ibantools';
import type { Database } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import { LogoImageError, reencodeLogo } from '../../lib/images/logo-image.ts';
import { createAuditRepository } from '../audit/audit.repository.ts';
import { type AuditActor, type AuditService, createAuditService } from '../audit/audit.service.ts';
import { createInvalidLogoError, createInvalidSignatureImageError } from './settings.errors.ts';
import type { SettingsRepository, StoredSettings } from './settings.repository.ts';

/**
 * The settings as used: texts left empty get their French default, and `timeZone` is the
 * organisation's (`ORG_TIMEZONE`), in which documents date what they print (docs/decisions/012).
 * Every field is there, among them what receipts and the Swiss QR-bill need (docs/decisions/022):
 * `receiptForOtherCountries` (`cerfa` | `attestation`), the structured address `addressStreet`,
 * `addressBuildingNumber`, `addressPostcode`, `addressTown` (empty while unknown) and `addressCountry`
 * (ISO 3166-1 alpha-2 or null), and `signatureImage` (a PNG or JPEG data URL, or null).
 */
export type EffectiveSettings = StoredSettings & Record<EmailTemplateField, string> & { timeZone: string };

function withDefaults(settings: StoredSettings, timeZone: string): EffectiveSettings {
  const templates = Object.fromEntries(
    EMAIL_TEMPLATE_FIELDS.map((field) => [field, templateOrDefault(field, settings[field])]),
  ) as Record<EmailTemplateField, string>;
  return { ...settings, ...templates, timeZone };
}

/**
 * Templates sent equal to their default are stored empty, so that they follow the default if it
 * changes ("Restore default" on the screen puts the default text back in the field).
 */
function withoutDefaults(settings: Settings): Settings {
  const stored = { ...settings };
  for (const field of EMAIL_TEMPLATE_FIELDS) {
    if (stored[field] !== undefined && stored[field].trim() === DEFAULT_EMAIL_TEMPLATES[field])
      stored[field] = '';
  }
  return stored;
}

/**
 * How the audit trail names a logo: its type, size and a fingerprint, never the image itself, e.g.
 * `PNG image, 10240 bytes, SHA-256 3f1a9c0b2e4d` (null without a logo).
 */
export function describeLogo(logo: string | null): string | null {
  if (!logo) return null;
  const match = /^data:image\/(png|jpeg);base64,(.*)$/.exec(logo);
  const bytes = Buffer.from(match?.[2] ?? '', 'base64');
  const fingerprint = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return `${(match?.[1] ?? 'unknown').toUpperCase()} image, ${bytes.length} bytes, SHA-256 ${fingerprint}`;
}

/** The settings that hold an image (a data URL): the audit trail describes them rather than keep them. */
const IMAGE_FIELDS = new Set(['logo', 'signatureImage']);

/** What the audit trail keeps of the settings: every field as stored, the images only described. */
function audited(settings: Settings): AuditValues {
  const values: AuditValues = {};
  for (const [field, value] of Object.entries(settings)) {
    values[field] = IMAGE_FIELDS.has(field)
      ? describeLogo(typeof value === 'string' ? value : null)
      : Array.isArray(value)
        ? JSON.stringify(value)
        : (value ?? null);
  }
  return values;
}

/** How each image setting is refused: its error code and words. */
const IMAGE_SETTINGS = {
  logo: { messages: LOGO_MESSAGES, error: createInvalidLogoError },
  signatureImage: { messages: SIGNATURE_IMAGE_MESSAGES, error: createInvalidSignatureImageError },
} satisfies Record<string, { messages: ImageMessages; error: typeof createInvalidLogoError }>;

/**
 * The image re-encoded (empty and null kept as they are, left out stays left out), or a 400 naming
 * `field` with the reason it is refused.
 */
async function cleanImage<T extends string | null | undefined>(
  field: keyof typeof IMAGE_SETTINGS,
  image: T,
): Promise<T | string> {
  if (!image) return image;
  const { messages, error: refusal } = IMAGE_SETTINGS[field];
  try {
    return await reencodeLogo(image, messages);
  } catch (error) {
    if (!(error instanceof LogoImageError)) throw error;
    throw refusal(error.message, [{ path: field, message: error.message }]);
  }
}

/** The direct-debit creditor account as stored: the IBAN without spaces, IBAN and BIC in capitals. */
function creditorAccount({ sepaCreditorIban, sepaCreditorBic }: Settings): Partial<Settings> {
  return {
    ...(sepaCreditorIban === undefined
      ? {}
      : { sepaCreditorIban: electronicFormatIBAN(sepaCreditorIban) ?? sepaCreditorIban }),
    ...(sepaCreditorBic === undefined ? {} : { sepaCreditorBic: sepaCreditorBic.toUpperCase() }),
  };
}

/** The invoices' accounts as stored: each IBAN without spaces, in capitals. */
function bankAccounts({ bankAccounts: accounts }: Settings): Partial<Settings> {
  return accounts === undefined
    ? {}
    : {
        bankAccounts: accounts.map((account) => ({
          currency: account.currency,
          iban: electronicFormatIBAN(account.iban) ?? account.iban,
        })),
      };
}

const SETTINGS_ENTITY = { type: 'settings', id: 1, label: 'Organisation settings' } as const;

/**
 * The organisation's identity used on documents and emails. Saves are audited;
 * `audit` defaults to a trail on the system clock for callers that only read (benchmarks).
 */
export function createSettingsService({
  db,
  repository,
  audit = createAuditService({ db, repository: createAuditRepository(), clock: systemClock }),
  timeZone = DEFAULT_TIME_ZONE,
}: {
  db: Database;
  repository: SettingsRepository;
  /** IANA zone of the organisation (config `orgTimezone`). */
  timeZone?: string;
  audit?: AuditService;
}) {
  return {
    /** The settings, with the default email texts where they are empty (so the screen shows what is sent). */
    get: async (): Promise<EffectiveSettings> => withDefaults(await repository.get(db), timeZone),

    /**
     * Replaces every setting sent; optional ones left out keep their value, and an empty email text
     * means "use the default". Audited as `actor`'s, with the fields that changed. The logo is stored
     * re-encoded (a clean PNG/JPEG of the same size, without metadata; see {@link reencodeLogo}), and so
     * is the signature image; the creditor IBAN without spaces and in capitals, as its BIC.
     * @throws 400 `settings.invalid_logo` naming `logo` for a logo that is not a real PNG/JPEG, is over
     * 1 MB or 2,000 × 2,000 pixels (read from its header, before any decoding), or cannot be decoded;
     * 400 `settings.invalid_signature_image` naming `signatureImage` for such a signature image.
     */
    save: async (settings: Settings, actor: AuditActor): Promise<EffectiveSettings> => {
      const logo = await cleanImage('logo', settings.logo);
      const signatureImage = await cleanImage('signatureImage', settings.signatureImage);
      const saved = await db.transaction(async (tx) => {
        const before = await repository.get(tx);
        await repository.save(tx, {
          ...withoutDefaults(settings),
          ...creditorAccount(settings),
          ...bankAccounts(settings),
          logo,
          signatureImage,
        });
        const after = await repository.get(tx);
        await audit.record(tx, {
          actor,
          entity: SETTINGS_ENTITY,
          action: 'updated',
          before: audited(before),
          after: audited(after),
        });
        return after;
      });
      return withDefaults(saved, timeZone);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
