import { createHash } from 'node:crypto';
import type { AuditValues } from '@back-office/contract/audit';
import {
  DEFAULT_BROCHURE_EMAIL_SUBJECT,
  DEFAULT_BROCHURE_EMAIL_TEXT,
  LOGO_MAX_BYTES,
  type Settings,
} from '@back-office/contract/settings';
import type { Database } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import { isUsableImage } from '../../lib/pdf/pdf-renderer.ts';
import { createAuditRepository } from '../audit/audit.repository.ts';
import { type AuditActor, type AuditService, createAuditService } from '../audit/audit.service.ts';
import { createInvalidLogoError } from './settings.errors.ts';
import type { SettingsRepository } from './settings.repository.ts';

const SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
} as const;

/**
 * Checks that a logo data URL holds what it says: a PNG or JPEG (by its first bytes) of at most 1 MB.
 * @throws 400 `settings.invalid_logo` naming the `logo` field.
 */
export function assertValidLogo(logo: string) {
  const match = /^data:image\/(png|jpeg);base64,(.+)$/.exec(logo);
  const invalid = (message: string) => createInvalidLogoError(message, [{ path: 'logo', message }]);
  if (!match?.[1] || !match[2]) throw invalid('The logo must be a PNG or JPEG image.');
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > LOGO_MAX_BYTES) throw invalid('The logo must be at most 1 MB.');
  const signature = SIGNATURES[match[1] as keyof typeof SIGNATURES];
  if (!signature.every((byte, index) => bytes[index] === byte)) {
    throw invalid('The logo must be a PNG or JPEG image.');
  }
}

/** The settings as used: texts left empty get their French default (issue 4 §8). */
export type EffectiveSettings = Settings & { brochureEmailSubject: string; brochureEmailText: string };

function withDefaults(settings: Settings): EffectiveSettings {
  return {
    ...settings,
    brochureEmailSubject: settings.brochureEmailSubject || DEFAULT_BROCHURE_EMAIL_SUBJECT,
    brochureEmailText: settings.brochureEmailText || DEFAULT_BROCHURE_EMAIL_TEXT,
  };
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

/** What the audit trail keeps of the settings: every field as stored, the logo only described. */
function audited(settings: Settings): AuditValues {
  const values: AuditValues = {};
  for (const [field, value] of Object.entries(settings)) {
    values[field] = field === 'logo' ? describeLogo(value ?? null) : (value ?? null);
  }
  return values;
}

const SETTINGS_ENTITY = { type: 'settings', id: 1, label: 'Organisation settings' } as const;

/**
 * The organisation's identity used on documents and emails (issue 3 §5). Saves are audited (issue 8
 * §8); `audit` defaults to a trail on the system clock for callers that only read (benchmarks).
 */
export function createSettingsService({
  db,
  repository,
  audit = createAuditService({ db, repository: createAuditRepository(), clock: systemClock }),
}: {
  db: Database;
  repository: SettingsRepository;
  audit?: AuditService;
}) {
  return {
    /** The settings, with the default email texts where they are empty (so the screen shows what is sent). */
    get: async (): Promise<EffectiveSettings> => withDefaults(await repository.get(db)),

    /**
     * Replaces every setting sent; optional ones left out keep their value, and an empty email text
     * means "use the default". Audited as `actor`'s, with the fields that changed. @throws 400 for a
     * logo that is not a real PNG/JPEG up to 1 MB, or that cannot be drawn on documents.
     */
    save: async (settings: Settings, actor: AuditActor): Promise<EffectiveSettings> => {
      if (settings.logo) {
        assertValidLogo(settings.logo);
        if (!(await isUsableImage(settings.logo))) {
          const message = 'The logo image is damaged: save it again as PNG or JPEG.';
          throw createInvalidLogoError(message, [{ path: 'logo', message }]);
        }
      }
      const saved = await db.transaction(async (tx) => {
        const before = await repository.get(tx);
        await repository.save(tx, settings);
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
      return withDefaults(saved);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
