import { LOGO_MAX_BYTES, type Settings } from '@back-office/contract/settings';
import type { Database } from '../../db/client.ts';
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

/** The organisation's identity used on documents and emails (issue 3 §5). */
export function createSettingsService({ db, repository }: { db: Database; repository: SettingsRepository }) {
  return {
    get: () => repository.get(db),

    /** Replaces every setting. @throws 400 for a logo that is not a real PNG/JPEG up to 1 MB. */
    save: async (settings: Settings): Promise<Settings> => {
      if (settings.logo) assertValidLogo(settings.logo);
      await repository.save(db, settings);
      return repository.get(db);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
