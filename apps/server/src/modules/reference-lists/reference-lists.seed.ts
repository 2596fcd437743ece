import { createRequire } from 'node:module';
import countryNames from 'i18n-iso-countries';
import type { Database, Executor } from '../../db/client.ts';
import { appliedSeeds, countries, currencies, paymentMethods } from './reference-lists.table.ts';

const require = createRequire(import.meta.url);
countryNames.registerLocale(require('i18n-iso-countries/langs/fr.json'));

/** The countries staff pick most, first in lists (lower `order`); every other country has 100. */
const FIRST_COUNTRIES = ['France', 'Suisse', 'Belgique', 'Luxembourg', 'Allemagne', 'Italie'];

/**
 * The countries of a new database: the official French name of every ISO 3166-1 country with its
 * alpha-2 code (i18n-iso-countries), those of {@link FIRST_COUNTRIES} first. Migration 0037 gives the
 * same codes, by name, to the countries of a database seeded before countries had codes.
 */
export function seededCountries(): Array<{ name: string; order: number; isoCode: string }> {
  const codeOf = new Map<string, string>();
  for (const [isoCode, name] of Object.entries(countryNames.getNames('fr', { select: 'official' }))) {
    if (!codeOf.has(name)) codeOf.set(name, isoCode);
  }
  const names = new Set([...FIRST_COUNTRIES, ...codeOf.keys()]);
  return [...names].map((name) => {
    const first = FIRST_COUNTRIES.indexOf(name);
    const isoCode = codeOf.get(name);
    if (!isoCode) throw new Error(`No ISO 3166-1 code for the seeded country '${name}'`);
    return { name, order: first === -1 ? 100 : first + 1, isoCode };
  });
}

/** The currencies of a new database, with their ISO 4217 codes (migration 0037 gives them to older ones). */
export const SEEDED_CURRENCIES = [
  { name: 'EURO', symbol: '€', isoCode: 'EUR' },
  { name: 'Swiss Franc', symbol: 'CHF', isoCode: 'CHF' },
] as const;

/** Reference data of a new database, each set applied once, ever, by name. */
const SEEDS: ReadonlyArray<{ name: string; apply: (tx: Executor) => Promise<unknown> }> = [
  {
    name: 'currencies-v1',
    apply: (tx) =>
      tx
        .insert(currencies)
        .values(SEEDED_CURRENCIES.map((currency) => ({ ...currency })))
        .onConflictDoNothing(),
  },
  {
    name: 'countries-v1',
    apply: (tx) => tx.insert(countries).values(seededCountries()).onConflictDoNothing(),
  },
  {
    name: 'payment-methods-v1',
    apply: (tx) =>
      tx
        .insert(paymentMethods)
        .values([
          { name: 'Chèque', directDebit: false },
          { name: 'Virement bancaire', directDebit: false },
          { name: 'Prélèvement SEPA', directDebit: true },
          { name: 'Carte bancaire', directDebit: false },
          { name: 'Espèces', directDebit: false },
        ])
        .onConflictDoNothing(),
  },
];

/**
 * Applies each seed not applied before, in one transaction with its marker, so a restart never
 * duplicates or brings back what staff changed or deleted.
 */
export async function seedReferenceData(db: Database) {
  for (const seed of SEEDS) {
    await db.transaction(async (tx) => {
      const marked = await tx
        .insert(appliedSeeds)
        .values({ name: seed.name })
        .onConflictDoNothing()
        .returning({ name: appliedSeeds.name });
      if (marked.length === 0) return;
      await seed.apply(tx);
    });
  }
}
