import { calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { isValidBIC } from 'ibantools';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUsableImage, renderPdf } from '../../lib/pdf/pdf-renderer.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { loadReferenceNames } from './subscriber-references.repository.ts';
import { mandateLetterDocument } from './subscriber-rum.document.ts';
import { createMandateSettingsMissingError } from './subscriber-rum.errors.ts';
import type { SubscriberRumRepository } from './subscriber-rum.repository.ts';
import { createStaleSubscriberError, createSubscriberNotFoundError } from './subscribers.errors.ts';
import type { SubscribersRepository } from './subscribers.repository.ts';
import { type SubscribersService, subscriberName } from './subscribers.service.ts';

/** Longest mandate reference SEPA allows. */
export const MANDATE_REFERENCE_MAX_LENGTH = 35;

/**
 * True for a valid SEPA mandate reference: 1 to 35 characters of `A-Z a-z 0-9 / - ? : ( ) . , ' +`
 * and space, neither starting nor ending with `/`, without `//`.
 */
export function isValidMandateReference(value: string): boolean {
  return (
    /^[A-Za-z0-9/\-?:().,'+ ]{1,35}$/.test(value) &&
    !value.startsWith('/') &&
    !value.endsWith('/') &&
    !value.includes('//')
  );
}

/**
 * A new mandate reference for subscriber `id` made at `date`, dated by the calendar day there in
 * `timeZone` (docs/decisions/012): `RUM-000042-20260521`, then `-2`, `-3`
 * ... appended in the unlikely case it is taken. At most 35 characters of the SEPA set.
 */
export function mandateReferenceCandidate(
  id: number,
  date: Date,
  attempt = 1,
  timeZone = DEFAULT_TIME_ZONE,
): string {
  const base = `RUM-${String(id).padStart(6, '0')}-${calendarDay(date, timeZone).replaceAll('-', '')}`;
  return attempt === 1 ? base : `${base}-${attempt}`;
}

/** `{lastname}-rum-letter.pdf`, with characters that file systems refuse replaced by `-`. */
export function mandateLetterFilename(lastName: string): string {
  const safe = lastName
    .replace(/[\\/:*?"<>|\p{Cc}\s]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${safe || 'subscriber'}-rum-letter.pdf`;
}

/** The SEPA direct-debit mandate letter (part 2 §2.2 Generate RUM Letter, §7 `/api/subscribers/{id}/rum`). */
export function createSubscriberRumService({
  db,
  repository,
  subscribersRepository,
  subscribersService,
  settingsService,
  clock,
}: {
  db: Database;
  repository: SubscriberRumRepository;
  subscribersRepository: SubscribersRepository;
  subscribersService: SubscribersService;
  settingsService: SettingsService;
  clock: Clock;
}) {
  return {
    /**
     * Makes the one-page PDF mandate form of subscriber `id`. A subscriber without a mandate reference
     * gets a new unique one, saved on the record (its version goes up); every letter writes the history
     * line "RUM letter generated (mandate reference X)." in the same transaction.
     * Returns the PDF bytes, its file name and the reference.
     * @throws 404 `subscribers.not_found` for an unknown or deleted subscriber;
     * 409 `subscribers.mandate_settings_missing` naming `organisationName` / `sepaCreditorId` when the
     * settings lack them.
     */
    letter: async (id: number, user: AuthUser) => {
      const settings = await settingsService.get();
      const missing = [
        { path: 'organisationName', present: settings.organisationName, what: "the organisation's name" },
        {
          path: 'sepaCreditorId',
          present: settings.sepaCreditorId,
          what: 'the SEPA creditor identifier (ICS)',
        },
      ].filter((item) => !item.present);
      if (missing.length > 0) {
        const message = `Enter ${missing.map((item) => item.what).join(' and ')} in the settings first: a mandate needs them.`;
        throw createMandateSettingsMissingError(
          message,
          missing.map((item) => ({ path: item.path, message })),
        );
      }

      return db.transaction(async (tx) => {
        const row = await subscribersRepository.lockById(tx, id);
        if (!row || row.hidden) throw createSubscriberNotFoundError(`No subscriber has id ${id}.`);
        let mandateReference = row.rum;
        if (!mandateReference) {
          let attempt = 1;
          mandateReference = mandateReferenceCandidate(id, clock.now(), 1, settings.timeZone);
          while (await repository.isReferenceTaken(tx, { rum: mandateReference, exceptId: id })) {
            attempt += 1;
            mandateReference = mandateReferenceCandidate(id, clock.now(), attempt, settings.timeZone);
          }
          const saved = await subscribersRepository.update(tx, id, row.version, { rum: mandateReference });
          if (!saved)
            throw createStaleSubscriberError('Someone else changed this subscriber at the same time.');
        }
        await subscribersService.addHistory(tx, {
          subscriberId: id,
          userName: user.fullName,
          description: `RUM letter generated (mandate reference ${mandateReference}).`,
        });
        const countries = await loadReferenceNames(tx, [{ countryId: row.countryId ?? 0 }]);
        const pdf = await renderPdf(
          mandateLetterDocument({
            creditor: {
              name: settings.organisationName,
              address: settings.address,
              creditorId: settings.sepaCreditorId,
              logo: (await isUsableImage(settings.logo)) ? settings.logo : null,
            },
            debtor: {
              name: subscriberName(row),
              addressLines: [row.address1, row.address2, row.address3],
              postcode: row.postcode,
              town: row.town,
              country: countries.get('countryId')?.get(row.countryId ?? 0) ?? '',
              iban: row.iban,
              // The record has no BIC field; a bank field holding a valid BIC is used, else the box stays empty.
              bic: isValidBIC(row.bank.trim().toUpperCase()) ? row.bank.trim().toUpperCase() : '',
            },
            mandateReference,
          }),
        );
        return { pdf, filename: mandateLetterFilename(row.lastName), mandateReference };
      });
    },
  };
}

export type SubscriberRumService = ReturnType<typeof createSubscriberRumService>;
