/**
 * Demo data: `npm run seed:demo -- --subscribers N [--donations N] [--sales N]` fills the database of
 * the configuration (PostgreSQL at DATABASE_URL, else the embedded database in DATA_DIR; stop the server
 * first when it is the embedded one) with generated data until it holds each number given:
 * - subscribers (default 1,000): French, Swiss and other addresses, categories, subscription types,
 *   payment methods, tags, copies, about 10 % no longer on the mailing list; names, towns and streets
 *   drawn from pools of 2,000 per region; `COPY` on PostgreSQL, multi-row INSERTs of 1,000 on PGlite;
 * - donations (default: none added), see `seed-demo-donations.ts`;
 * - sales with their lines and about twenty products (default: none added), see `seed-demo-sales.ts`.
 * Running it again adds only what is missing.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isValidIban } from '@back-office/contract/subscribers';
import { type Faker, fakerDE, fakerDE_CH, fakerFR, fakerFR_BE, fakerFR_CH, fakerIT } from '@faker-js/faker';
import { count, inArray, sql } from 'drizzle-orm';
import { composeIBAN } from 'ibantools';
import pg from 'pg';
import { ConfigError, loadConfig } from '../src/config.ts';
import { type Database, DataDirInUseError, openDatabase } from '../src/db/client.ts';
import { prepareDatabase } from '../src/db/seed.ts';
import { foldForSearch } from '../src/lib/search-text.ts';
import {
  categories,
  countries,
  currencies,
  paymentMethods,
  subscriptionTypes,
  tags,
} from '../src/modules/reference-lists/reference-lists.table.ts';
import { subscribers, subscriberTags } from '../src/modules/subscribers/subscribers.table.ts';
import { copyLines, csvValue, dropSecondaryIndexes, REBUILD_INDEXES_FROM, snakeCase } from './seed-copy.ts';
import { seedDemoDonations } from './seed-demo-donations.ts';
import { seedDemoSales } from './seed-demo-sales.ts';

/** Rows per INSERT statement (about 40 parameters each, well under PostgreSQL's 65,535). */
const BATCH_SIZE = 1000;

const DEMO_CATEGORIES = [
  'Abonné',
  'Membre',
  'Donateur',
  'Bienfaiteur',
  'Partenaire',
  'Presse',
  'Bibliothèque',
];
const DEMO_SUBSCRIPTION_TYPES = ['Annuel', 'Mensuel', 'Gratuit', 'Institutionnel', 'Soutien'];
/** Tags with their share of subscribers, from common to rare. */
const DEMO_TAGS: ReadonlyArray<[string, number]> = [
  ['Newsletter papier', 0.25],
  ['Bénévole', 0.08],
  ['Ancien membre', 0.07],
  ['Conférence 2025', 0.05],
  ['Salon du livre', 0.04],
  ['VIP', 0.01],
];
const BANKS = {
  FR: ['Crédit Agricole', 'BNP Paribas', 'Société Générale', 'La Banque Postale', 'Crédit Mutuel', 'CIC'],
  CH: ['UBS', 'PostFinance', 'Banque Cantonale Vaudoise', 'Raiffeisen', 'Banque Cantonale de Genève'],
};
const REMOVAL_REASONS = [
  'Ne souhaite plus recevoir la revue',
  'Décédé(e)',
  'Adresse inconnue (NPAI)',
  'Doublon',
  'Déménagé sans nouvelle adresse',
];

type Region = {
  country: string;
  faker: Faker;
  weight: number;
  iban: 'FR' | 'CH' | 'BE' | 'DE' | 'IT' | null;
};

/** Distinct values drawn per region and field: the names, towns and streets a million subscribers share. */
const POOL_SIZE = 2_000;

/**
 * The local values of one region (names, towns, streets, phones, companies), drawn once from its faker
 * locale and then picked from: faker's locale templates cost about 0.3 ms per subscriber, which made a
 * million subscribers take minutes of this process's time alone.
 */
type RegionPool = {
  german: boolean;
  firstName: (sex: 'female' | 'male') => string;
  lastName: (sex: 'female' | 'male') => string;
  town: () => string;
  postcode: () => string;
  street: () => string;
  phone: () => string;
  company: () => string;
  fullName: () => string;
};

function createRegionPool(region: Region, pick: <T>(items: ReadonlyArray<T>) => T): RegionPool {
  const local = region.faker;
  const draw = (generate: () => string) => Array.from({ length: POOL_SIZE }, generate);
  const firstNames = {
    female: draw(() => local.person.firstName('female')),
    male: draw(() => local.person.firstName('male')),
  };
  const lastNames = {
    female: draw(() => local.person.lastName('female')),
    male: draw(() => local.person.lastName('male')),
  };
  const towns = draw(() => local.location.city());
  const postcodes = draw(() => local.location.zipCode());
  const streets = draw(() => local.location.streetAddress());
  const phones = draw(() => local.phone.number());
  const companies = draw(() => local.company.name());
  const fullNames = draw(() => local.person.fullName());
  return {
    german: local === fakerDE_CH || local === fakerDE,
    firstName: (sex) => pick(firstNames[sex]),
    lastName: (sex) => pick(lastNames[sex]),
    town: () => pick(towns),
    postcode: () => pick(postcodes),
    street: () => pick(streets),
    phone: () => pick(phones),
    company: () => pick(companies),
    fullName: () => pick(fullNames),
  };
}

/** Where subscribers live: mostly France and Switzerland (French and German speaking), some elsewhere. */
const REGIONS: ReadonlyArray<Region> = [
  { country: 'France', faker: fakerFR, weight: 0.62, iban: 'FR' },
  { country: 'Suisse', faker: fakerFR_CH, weight: 0.16, iban: 'CH' },
  { country: 'Suisse', faker: fakerDE_CH, weight: 0.09, iban: 'CH' },
  { country: 'Belgique', faker: fakerFR_BE, weight: 0.05, iban: 'BE' },
  { country: 'Luxembourg', faker: fakerFR, weight: 0.02, iban: null },
  { country: 'Allemagne', faker: fakerDE, weight: 0.03, iban: 'DE' },
  { country: 'Italie', faker: fakerIT, weight: 0.03, iban: 'IT' },
];

function pickWeighted<T>(faker: Faker, items: ReadonlyArray<T>, weight: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weight(item), 0);
  let roll = faker.number.float({ min: 0, max: total });
  for (const item of items) {
    roll -= weight(item);
    if (roll <= 0) return item;
  }
  return items[items.length - 1] as T;
}

const chance = (faker: Faker, probability: number) => faker.number.float({ min: 0, max: 1 }) < probability;

/**
 * An IBAN of `countryCode` that the subscriber form accepts. faker's pass the IBAN check digits but
 * almost never the national ones of France (RIB key) and Belgium (mod 97), and a demo record must be
 * savable as it stands, so those two get a BBAN with its national key; ibantools adds the check digits.
 */
function validIban(faker: Faker, countryCode: NonNullable<Region['iban']>): string {
  const digits = (length: number) => faker.string.numeric({ length, allowLeadingZeros: true });
  let bban: string | undefined;
  if (countryCode === 'FR') {
    const [bank, branch, account] = [digits(5), digits(5), digits(11)];
    const key = 97 - Number((89n * BigInt(bank) + 15n * BigInt(branch) + 3n * BigInt(account)) % 97n);
    bban = `${bank}${branch}${account}${String(key).padStart(2, '0')}`;
  } else if (countryCode === 'BE') {
    const number = digits(10);
    bban = `${number}${String(Number(BigInt(number) % 97n) || 97).padStart(2, '0')}`;
  }
  const iban = bban
    ? composeIBAN({ countryCode, bban })
    : faker.finance.iban({ formatted: false, countryCode });
  if (!iban || !isValidIban(iban)) throw new Error(`demo IBAN ${iban} for ${countryCode} is not valid`);
  return iban;
}

/** Creates the demo categories, subscription types and tags that do not exist yet; returns every id needed. */
async function loadReferences(db: Database) {
  await db
    .insert(categories)
    .values(DEMO_CATEGORIES.map((name) => ({ name })))
    .onConflictDoNothing();
  await db
    .insert(subscriptionTypes)
    .values(DEMO_SUBSCRIPTION_TYPES.map((name) => ({ name })))
    .onConflictDoNothing();
  await db
    .insert(tags)
    .values(DEMO_TAGS.map(([name]) => ({ name })))
    .onConflictDoNothing();
  const byName = <T extends { id: number; name: string }>(rows: T[]) =>
    new Map(rows.map((row) => [row.name.toLowerCase(), row]));
  const countryRows = byName(
    await db
      .select({ id: countries.id, name: countries.name })
      .from(countries)
      .where(
        inArray(
          countries.name,
          REGIONS.map((region) => region.country),
        ),
      ),
  );
  const currencyRows = byName(await db.select({ id: currencies.id, name: currencies.name }).from(currencies));
  const tagRows = byName(await db.select({ id: tags.id, name: tags.name }).from(tags));
  return {
    countryId: (name: string) => countryRows.get(name.toLowerCase())?.id ?? null,
    euro: currencyRows.get('euro')?.id,
    swissFranc: currencyRows.get('swiss franc')?.id,
    paymentMethods: await db
      .select({ id: paymentMethods.id, directDebit: paymentMethods.directDebit })
      .from(paymentMethods),
    categoryIds: (await db.select({ id: categories.id }).from(categories)).map((row) => row.id),
    subscriptionTypeIds: (await db.select({ id: subscriptionTypes.id }).from(subscriptionTypes)).map(
      (row) => row.id,
    ),
    tags: DEMO_TAGS.flatMap(([name, share]) => {
      const id = tagRows.get(name.toLowerCase())?.id;
      return id ? [{ id, share }] : [];
    }),
  };
}

type References = Awaited<ReturnType<typeof loadReferences>>;

/** One generated subscriber row and its tag ids. */
function generateSubscriber(
  faker: Faker,
  references: References,
  pools: Map<Region, RegionPool>,
  sequence: number,
  now: Date,
) {
  const region = pickWeighted(faker, REGIONS, (item) => item.weight);
  const local = pools.get(region);
  if (!local) throw new Error(`no pool of values for ${region.country}`);
  const sex = faker.helpers.arrayElement(['female', 'male'] as const);
  const german = local.german;
  const firstName = local.firstName(sex);
  const lastName = local.lastName(sex);
  const town = local.town();
  const postcode = local.postcode();
  const association = chance(faker, 0.12) ? local.company() : '';
  const email = chance(faker, 0.8)
    ? `${foldForSearch(firstName).replace(/[^a-z]/g, '')}.${foldForSearch(lastName).replace(/[^a-z]/g, '')}.${sequence}@example.${faker.helpers.arrayElement(['org', 'com', 'net'])}`
    : '';
  const method = chance(faker, 0.9) ? faker.helpers.arrayElement(references.paymentMethods) : undefined;
  const directDebit = Boolean(method?.directDebit) && region.iban !== null;
  const swiss = region.country === 'Suisse';
  const inactive = chance(faker, 0.1);
  const addedOn = faker.date.between({ from: new Date(now.getTime() - 12 * 365 * 86_400_000), to: now });
  const startDate = chance(faker, 0.7) ? faker.date.between({ from: addedOn, to: now }) : null;
  const copies = pickWeighted(
    faker,
    [
      [0, 0.1],
      [1, 0.65],
      [2, 0.12],
      [3, 0.06],
      [5, 0.04],
      [10, 0.02],
      [25, 0.01],
    ] as const,
    ([, weight]) => weight,
  )[0];
  const tagIds = references.tags.filter((tag) => chance(faker, tag.share)).map((tag) => tag.id);
  const row: typeof subscribers.$inferInsert = {
    title: chance(faker, 0.1)
      ? ''
      : german
        ? sex === 'female'
          ? 'Frau'
          : 'Herr'
        : sex === 'female'
          ? 'Mme'
          : 'M.',
    firstName,
    lastName,
    email,
    phone: chance(faker, 0.55) ? local.phone() : '',
    mobile: chance(faker, 0.45) ? local.phone() : '',
    fax: chance(faker, 0.03) ? local.phone() : '',
    address1: local.street(),
    address2: chance(faker, 0.12) ? `Appartement ${faker.number.int({ min: 1, max: 60 })}` : '',
    address3: chance(faker, 0.03) ? `BP ${faker.number.int({ min: 10, max: 999 })}` : '',
    town,
    postcode,
    billingAddress: chance(faker, 0.03) ? `${local.street()}\n${postcode} ${town}` : '',
    notes: chance(faker, 0.2) ? faker.lorem.sentence() : '',
    association,
    inactive,
    inactiveReason: inactive ? faker.helpers.arrayElement(REMOVAL_REASONS) : '',
    rum: directDebit && chance(faker, 0.6) ? `DEMO-${String(sequence).padStart(8, '0')}` : '',
    countryId: references.countryId(region.country),
    paymentMethodId: method?.id ?? null,
    categoryId: chance(faker, 0.85) ? faker.helpers.arrayElement(references.categoryIds) : null,
    subscriptionTypeId: chance(faker, 0.8)
      ? faker.helpers.arrayElement(references.subscriptionTypeIds)
      : null,
    currencyId: (swiss ? references.swissFranc : references.euro) ?? 1,
    recommendedBy: chance(faker, 0.05) ? local.fullName() : '',
    copies,
    bank: directDebit ? faker.helpers.arrayElement(swiss ? BANKS.CH : BANKS.FR) : '',
    iban: directDebit && region.iban ? validIban(faker, region.iban) : '',
    amount: (directDebit
      ? faker.number.int({ min: 5, max: 50 })
      : faker.helpers.arrayElement([0, 20, 25, 30, 35, 50, 80, 100, 150])
    ).toFixed(2),
    startDate: startDate ? startDate.toISOString().slice(0, 10) : null,
    endDate:
      startDate && chance(faker, 0.1)
        ? faker.date.future({ years: 3, refDate: now }).toISOString().slice(0, 10)
        : null,
    onMailChimpList: email !== '' && chance(faker, 0.4),
    newsletterEmail: email !== '' && chance(faker, 0.1) ? email : '',
    addedBy: 'Demo data',
    addedOn,
    searchFirstName: foldForSearch(firstName),
    searchLastName: foldForSearch(lastName),
    searchTown: foldForSearch(town),
    searchPostcode: foldForSearch(postcode),
    searchAssociation: foldForSearch(association),
  };
  return { row, tagIds };
}

/**
 * Adds generated subscribers until the database holds `target` (deleted ones count); returns how many
 * there were and how many were added. `log` receives progress lines. With `copyTo` (PostgreSQL), rows go
 * in through `COPY … FROM STDIN` with their ids chosen here (a million in about a minute); else through
 * multi-row INSERTs of 1,000.
 */
export async function seedDemoSubscribers(
  db: Database,
  {
    target,
    log = () => {},
    copyTo,
  }: { target: number; log?: (line: string) => void; copyTo?: { databaseUrl: string } },
) {
  const [existingRow] = await db.select({ n: count() }).from(subscribers);
  const existing = Number(existingRow?.n ?? 0);
  const missing = Math.max(0, target - existing);
  log(`${existing} subscribers exist; adding ${missing} to reach ${target}.`);
  if (missing === 0) return { existing, added: 0 };

  const references = await loadReferences(db);
  const faker = fakerFR;
  faker.seed(existing + 1);
  const pick = <T>(items: ReadonlyArray<T>) => faker.helpers.arrayElement(items);
  const pools = new Map(REGIONS.map((region) => [region, createRegionPool(region, pick)]));
  const now = new Date();
  const started = Date.now();
  const progress = (added: number) => {
    if (added % 20_000 === 0 || added === missing) {
      log(`  ${added} / ${missing} added (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  };
  let added = 0;
  if (copyTo) {
    added = await copySubscribers(
      copyTo.databaseUrl,
      missing,
      (sequence) => generateSubscriber(faker, references, pools, existing + sequence, now),
      progress,
    );
  } else {
    while (added < missing) {
      const size = Math.min(BATCH_SIZE, missing - added);
      const generated = Array.from({ length: size }, (_, index) =>
        generateSubscriber(faker, references, pools, existing + added + index + 1, now),
      );
      await db.transaction(async (tx) => {
        const ids = await tx
          .insert(subscribers)
          .values(generated.map((item) => item.row))
          .returning({ id: subscribers.id });
        const links = generated.flatMap((item, index) =>
          item.tagIds.map((tagId) => ({ subscriberId: ids[index]?.id ?? 0, tagId })),
        );
        if (links.length > 0) await tx.insert(subscriberTags).values(links);
      });
      added += size;
      progress(added);
    }
  }
  await db.execute(sql`analyze subscribers, subscriber_tags`);
  return { existing, added };
}

/** Rows per `COPY` statement of {@link copySubscribers}. */
const COPY_BATCH_SIZE = 50_000;

/**
 * Writes `count` generated subscribers and their tags with `COPY … FROM STDIN (FORMAT csv)`, ids taken
 * after the highest one (the identity then moves past them), one transaction per
 * {@link COPY_BATCH_SIZE}; `generate(sequence)` gives the subscriber numbered from 1. Each batch holds
 * the table locked (a seed, not for a database staff are using).
 */
async function copySubscribers(
  databaseUrl: string,
  total: number,
  generate: (sequence: number) => ReturnType<typeof generateSubscriber>,
  progress: (added: number) => void,
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Indexes are built once afterwards rather than row by row (several times faster for many rows).
  const rebuild =
    total >= REBUILD_INDEXES_FROM
      ? await dropSecondaryIndexes(client, ['subscribers', 'subscriber_tags'])
      : [];
  try {
    let added = 0;
    let columns: string[] | undefined;
    while (added < total) {
      const size = Math.min(COPY_BATCH_SIZE, total - added);
      await client.query('begin');
      await client.query('lock table subscribers in share row exclusive mode');
      const { rows } = await client.query<{ last: string }>(
        'select coalesce(max(id), 0) as last from subscribers',
      );
      const firstId = Number(rows[0]?.last ?? 0) + 1;
      const people: string[] = [];
      const links: string[] = [];
      for (let index = 0; index < size; index += 1) {
        const { row, tagIds } = generate(added + index + 1);
        const id = firstId + index;
        columns ??= Object.keys(row);
        const record = row as Record<string, unknown>;
        people.push(`${id},${columns.map((key) => csvValue(record[key])).join(',')}\n`);
        for (const tagId of tagIds) links.push(`${id},${tagId}\n`);
      }
      const names = ['id', ...(columns ?? [])].map((key) => `"${snakeCase(key)}"`).join(', ');
      // The dashboard's count per country follows: its insert trigger counts each statement's rows
      // once (migration 0029), COPY included.
      await copyLines(client, `copy subscribers (${names}) from stdin (format csv)`, people);
      await copyLines(client, 'copy subscriber_tags (subscriber_id, tag_id) from stdin (format csv)', links);
      await client.query(
        "select setval(pg_get_serial_sequence('subscribers', 'id'), (select max(id) from subscribers))",
      );
      await client.query('commit');
      added += size;
      progress(added);
    }
    return added;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    for (const definition of rebuild) await client.query(definition);
    await client.end();
  }
}

const USAGE =
  'Usage: npm run seed:demo -- --subscribers N [--donations N] [--sales N]   (whole numbers, e.g. 5000)\n';

/** A whole-number option, or undefined when it was not given; exits with the usage on anything else. */
function wholeNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || value.trim() === '') {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  return number;
}

async function main() {
  const { values } = parseArgs({
    options: {
      subscribers: { type: 'string', default: '1000' },
      donations: { type: 'string' },
      sales: { type: 'string' },
    },
  });
  const target = wholeNumber(values.subscribers) ?? 1000;
  const donationTarget = wholeNumber(values.donations);
  const saleTarget = wholeNumber(values.sales);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    process.stdout.write(
      `Database: ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir}`}\n`,
    );
    const prepared = await prepareDatabase(database, config);
    const admin = prepared.createdAdministrator;
    if (admin) {
      process.stdout.write(
        `First start: an Administrator account was created: ${admin.email} / ${admin.generatedPassword ?? 'the value of ADMIN_PASSWORD'}${admin.generatedPassword ? '   (shown only this once)' : ''}\n`,
      );
    }
    const log = (line: string) => process.stdout.write(`${line}\n`);
    // On PostgreSQL the rows go in through COPY.
    const copyTo =
      database.kind === 'postgres' && config.databaseUrl
        ? { copyTo: { databaseUrl: config.databaseUrl } }
        : {};
    const { added } = await seedDemoSubscribers(database.db, { target, log, ...copyTo });
    const donationsAdded =
      donationTarget === undefined
        ? 0
        : (await seedDemoDonations(database.db, { target: donationTarget, log, ...copyTo })).added;
    const salesAdded =
      saleTarget === undefined
        ? 0
        : (await seedDemoSales(database.db, { target: saleTarget, log, ...copyTo })).added;
    process.stdout.write(
      `Done: ${added} subscribers added.${donationTarget === undefined ? '' : ` ${donationsAdded} donations added.`}${saleTarget === undefined ? '' : ` ${salesAdded} sales added.`}\n`,
    );
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `seed:demo failed: ${error instanceof DataDirInUseError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
