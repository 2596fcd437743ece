import { z } from 'zod';
import { plainString } from './common.ts';

/**
 * Personal-data rights of a subscriber (GDPR art. 15, 17, 20; Swiss nFADP art. 25, 28, 32;
 * docs/decisions/019): the download of everything the register holds about them, and anonymisation.
 * Administrator only.
 */

/** Fewest and most characters of the reason for an anonymisation. */
export const ANONYMISE_REASON_MIN = 3;
export const ANONYMISE_REASON_MAX = 500;

/**
 * `POST /api/subscribers/{id}/anonymise` body: why the identity is erased (e.g. "Request by letter of
 * 2 May 2026"), 3 to 500 characters; written in the history and the audit trail, so it should not
 * itself name the person.
 */
export const anonymiseSubscriberInputSchema = z.object({
  reason: plainString({ message: 'Give the reason for the anonymisation.' })
    .trim()
    .min(1, { message: 'Give the reason for the anonymisation.' })
    .min(ANONYMISE_REASON_MIN, { message: `At least ${ANONYMISE_REASON_MIN} characters.` })
    .max(ANONYMISE_REASON_MAX, { message: `At most ${ANONYMISE_REASON_MAX} characters.` }),
});
export type AnonymiseSubscriberInput = z.infer<typeof anonymiseSubscriberInputSchema>;

/** First name of an anonymised subscriber; the last name is {@link anonymisedLastName}. */
export const ANONYMISED_FIRST_NAME = 'Anonymised';

/** Last name of an anonymised subscriber, e.g. `Subscriber 42`: staff can still tell records apart. */
export function anonymisedLastName(id: number): string {
  return `Subscriber ${id}`;
}

/**
 * Name of the personal-data archive of subscriber `id` made on `day` (`YYYY-MM-DD` in the
 * organisation's time zone, docs/decisions/012), e.g. `personal-data-42-2026-05-02.zip`.
 */
export function personalDataFileName(id: number, day: string): string {
  return `personal-data-${id}-${day}.zip`;
}

/** Limits and default of the settings' `documentRetentionYears` (docs/decisions/019). */
export const DOCUMENT_RETENTION_YEARS = { min: 1, max: 50, default: 10 } as const;

/**
 * Limits and default of the settings' `inactivityReportYears`: after how many years without activity a
 * subscriber is listed by the retention report (GDPR art. 5(1)(e), storage limitation).
 */
export const INACTIVITY_REPORT_YEARS = { min: 1, max: 50, default: 3 } as const;
