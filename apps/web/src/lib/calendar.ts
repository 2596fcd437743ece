import {
  calendarDay,
  calendarYear,
  DEFAULT_TIME_ZONE,
  isKnownTimeZone,
} from '@back-office/contract/calendar';
import { decodeJwtPayload, getIdToken } from './session.ts';

/**
 * The organisation's time zone (docs/decisions/012): the `zoneinfo` claim of the signed-in id token, which the
 * server sets from `ORG_TIMEZONE`; Europe/Paris before sign-in. Never the browser's own zone.
 */
export function organisationTimeZone(): string {
  const token = getIdToken();
  const zone = token ? decodeJwtPayload(token)?.zoneinfo : undefined;
  return typeof zone === 'string' && isKnownTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/** Today (`YYYY-MM-DD`) where the organisation is, at `now`. */
export function organisationToday(now: Date = new Date()): string {
  return calendarDay(now, organisationTimeZone());
}

/** The current year where the organisation is, at `now`. */
export function organisationYear(now: Date = new Date()): number {
  return calendarYear(now, organisationTimeZone());
}
