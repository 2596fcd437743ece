import { afterEach, describe, expect, it } from 'vitest';
import { idTokenExpiringIn } from '../testing/session.ts';
import { organisationTimeZone, organisationToday, organisationYear } from './calendar.ts';
import { clearSession, saveTokens } from './session.ts';

/** Signs in with an id token whose `zoneinfo` claim is `zone` (none when undefined). */
function signInWithZone(zone?: string) {
  saveTokens({
    idToken: idTokenExpiringIn(3600, { sub: '1', role: 'User', ...(zone ? { zoneinfo: zone } : {}) }),
    accessToken: 'access-token',
  });
}

afterEach(() => clearSession());

describe('the organisation calendar in the browser', () => {
  // 1 January 2027 at 00:30 in Paris is still 31 December 2026 in UTC (and in London).
  const newYearInParis = new Date('2026-12-31T23:30:00Z');

  it("uses the id token's zoneinfo, not the browser's zone", () => {
    signInWithZone('Europe/Paris');
    expect(organisationToday(newYearInParis)).toBe('2027-01-01');
    expect(organisationYear(newYearInParis)).toBe(2027);
    signInWithZone('Europe/London');
    expect(organisationToday(newYearInParis)).toBe('2026-12-31');
    expect(organisationYear(newYearInParis)).toBe(2026);
  });

  it('falls back to Europe/Paris before sign-in and for an unknown zone', () => {
    expect(organisationTimeZone()).toBe('Europe/Paris');
    signInWithZone('Mars/Olympus_Mons');
    expect(organisationTimeZone()).toBe('Europe/Paris');
    signInWithZone();
    expect(organisationToday(newYearInParis)).toBe('2027-01-01');
  });
});
