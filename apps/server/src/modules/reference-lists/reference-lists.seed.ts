import { createRequire } from 'node:module';
import countryNames from 'i18n-iso-countries';
import type { Database, Executor } from '../../db/client.ts';
import { appliedSeeds, countries, currencies, paymentMethods } from './reference-lists.table.ts';

const require = createRequire(import.meta.url);
countryNames.registerLocale(require('i18n-iso-countries/langs/fr.json'));

/** The countries staff pick most, first in lists (lower `order`); every other country has 100. */
const FIRST_COUNTRIES = ['France', 'Suisse', 'Belgique', 'Luxembourg', 'Allemagne', 'Italie'];

/** Reference data of a new database, each set applied once, ever, by name. */
const SEEDS: ReadonlyArray<{ name: string; apply: (tx: Executor) => Promise<unknown> }> = [
  {
    name: 'currencies-v1',
    apply: (tx) =>
      tx
        .insert(currencies)
        .values([
          { name: 'EURO', symbol: '€' },
          { name: 'Swiss Franc', symbol: 'CHF' },
        ])
        .onConflictDoNothing(),
  },
  {
    name: 'countries-v1',
    apply: (tx) => {
      const names = new Set([
        ...FIRST_COUNTRIES,
        ...Object.values(countryNames.getNames('fr', { select: 'official' })),
      ]);
      return tx
        .insert(countries)
        .values(
          [...names].map((name) => {
            const first = FIRST_COUNTRIES.indexOf(name);
            return { name, order: first === -1 ? 100 : first + 1 };
          }),
        )
        .onConflictDoNothing();
    },
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
