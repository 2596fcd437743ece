import type { Settings } from '@back-office/contract/settings';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { organisationSettings } from './settings.table.ts';

const SETTINGS_ID = 1;

/**
 * The settings as stored: the fields a save may leave out (they keep their value) are always there.
 * (The email templates are too, but stay optional here as in the contract: the service fills them.)
 */
export type StoredSettings = Settings &
  Required<
    Pick<
      Settings,
      | 'documentRetentionYears'
      | 'inactivityReportYears'
      | 'receiptForOtherCountries'
      | 'addressStreet'
      | 'addressBuildingNumber'
      | 'addressPostcode'
      | 'addressTown'
      | 'addressCountry'
      | 'signatureImage'
      | 'organisationType'
      | 'organisationTypeDetail'
      | 'sepaPreNotificationDays'
      | 'sepaFirstAsRecurring'
      | 'sepaCreditorIban'
      | 'sepaCreditorBic'
      | 'bankAccounts'
      | 'epcQrCode'
      | 'reminderIntervalDays'
    >
  >;

/** The single settings row. */
export function createSettingsRepository() {
  return {
    /** The settings, creating the empty row on first read. */
    get: async (db: Executor): Promise<StoredSettings> => {
      await db.insert(organisationSettings).values({ id: SETTINGS_ID }).onConflictDoNothing();
      const [row] = await db
        .select()
        .from(organisationSettings)
        .where(eq(organisationSettings.id, SETTINGS_ID));
      if (!row) throw new Error('organisation_settings row missing');
      const { id: _id, updatedAt: _updatedAt, ...settings } = row;
      return settings;
    },

    save: async (db: Executor, settings: Settings) => {
      await db
        .insert(organisationSettings)
        .values({ id: SETTINGS_ID, ...settings })
        .onConflictDoUpdate({ target: organisationSettings.id, set: { ...settings, updatedAt: sql`now()` } });
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
