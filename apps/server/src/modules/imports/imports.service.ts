import { calendarDay } from '@back-office/contract/calendar';
import {
  type CommitImport,
  IMPORT_FIELDS,
  IMPORT_KEPT_DAYS,
  type Import,
  type ImportDryRun,
  type ImportDryRunQuery,
  type ImportKind,
  type ImportRowError,
  type ImportSummary,
  type SaveImportMapping,
} from '@back-office/contract/imports';
import { type SaveSubscriber, saveSubscriberInputSchema } from '@back-office/contract/subscribers';
import { asc, type SQLWrapper, sql } from 'drizzle-orm';
import { anyOf, type Database, type Executor, queryRows, type Transaction } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { databaseUnavailableReason } from '../../lib/postgres-errors.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { JobsRepository } from '../jobs/jobs.repository.ts';
import type { JobContext } from '../jobs/jobs.runner.ts';
import { currencies } from '../reference-lists/reference-lists.table.ts';
import { describeSubscriberChanges } from '../subscribers/subscriber-history-text.ts';
import { loadReferenceNames } from '../subscribers/subscriber-references.repository.ts';
import type { SubscribersRepository } from '../subscribers/subscribers.repository.ts';
import { subscriberName, toSubscriberColumns, toSubscriberDto } from '../subscribers/subscribers.service.ts';
import { subscriberHistory, subscribers, subscriberTags } from '../subscribers/subscribers.table.ts';
import { createDonationImporter } from './donation-import.ts';
import { columnSamples, readImportFile } from './import-file.ts';
import {
  createBadImportMappingError,
  createImportChangedSinceError,
  createImportNotFoundError,
  createImportWrongStatusError,
} from './imports.errors.ts';
import type { CheckedRow, CommittedRow, ImportsRepository } from './imports.repository.ts';
import type { ImportRow } from './imports.table.ts';
import { createProductImporter } from './product-import.ts';
import { namedFew, type RowImportContext, type RowImporter } from './row-importer.ts';
import { createSaleImporter } from './sale-import.ts';
import {
  guessMapping,
  type ImportList,
  type ReadSubscriberRow,
  type ReferenceLookup,
  readSubscriberRow,
  splitTags,
} from './subscriber-import.ts';

/** Rows read, checked or written per statement. */
const BATCH_ROWS = 500;
/** Rows stored per statement at upload. */
const UPLOAD_BATCH_ROWS = 2_000;
/** Most imports `GET /api/imports` lists. */
const LIST_LIMIT = 50;
/** Imports one run of the `imports.expire` job expires. */
const EXPIRE_BATCH = 20;
const DAY_MS = 86_400_000;

/** Most row errors kept on a failed commit. */
const MAX_REPORTED = 100;

/** The row importers of the kinds other than subscribers. */
const ROW_IMPORTERS: Record<
  Exclude<ImportKind, 'subscribers'>,
  (context: RowImportContext) => RowImporter
> = {
  donations: createDonationImporter,
  sales: createSaleImporter,
  products: createProductImporter,
};

const DEFAULT_OPTIONS = {
  dateFormat: 'DD/MM/YYYY',
  decimalSeparator: ',',
  createMissingReferences: false,
  defaultCurrencyId: null,
} as const;

/** The import fields of a subscriber save payload's keys, for a merge that writes only the cells filled in. */
const SAVE_FIELD_OF: Record<string, keyof SaveSubscriber> = {
  country: 'countryId',
  paymentMethod: 'paymentMethodId',
  category: 'categoryId',
  subscriptionType: 'subscriptionTypeId',
  currency: 'currencyId',
  stillOnMailingList: 'inactive',
};

/** Stops a commit between two batches (cancel, or the process stopping): its transaction rolls back. */
class CommitStopped extends Error {}
/** Rows that cannot be written: the commit rolls back and the import fails, naming them. */
class RowsRefused extends Error {
  constructor(readonly rows: ImportRowError[]) {
    super(`${rows.length} row${rows.length === 1 ? '' : 's'} cannot be imported`);
  }
}

function toSummary(row: ImportRow): ImportSummary {
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.fileName,
    status: row.status,
    rowCount: row.rowCount,
    mapping: row.mapping,
    options: row.options,
    dryRun:
      row.dryValid === null
        ? null
        : { valid: row.dryValid, invalid: row.dryInvalid ?? 0, duplicates: row.dryDuplicates ?? 0 },
    processed: row.processed,
    total: row.total,
    created: row.created,
    merged: row.merged,
    skipped: row.skipped,
    errors: row.errors,
    failure: row.failure,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    committedAt: row.committedAt?.toISOString() ?? null,
    undoneAt: row.undoneAt?.toISOString() ?? null,
  };
}

const toImport = (row: ImportRow): Import => ({ ...toSummary(row), columns: row.columns });

/** `column` is one of `ids`, however many. */
const idIn = (column: SQLWrapper, ids: number[]) => sql`${column} = ${anyOf(ids, 'int')}`;

/** Normalised email and IBAN of a row, the keys duplicates are found by. */
const emailKey = (input: SaveSubscriber) => input.email.toLowerCase();
const ibanKey = (input: SaveSubscriber) => input.iban.replace(/\s+/g, '').toUpperCase();

/**
 * Imports (contract `imports`; Administrator): upload and read a file, map its columns, dry-run it,
 * commit it in an `imports.commit` background job (one transaction: all or nothing), undo it.
 */
export function createImportsService({
  db,
  repository,
  subscribersRepository,
  jobs,
  clock,
  timeZone,
  nudge,
}: {
  db: Database;
  repository: ImportsRepository;
  subscribersRepository: SubscribersRepository;
  jobs: Pick<JobsRepository, 'enqueue' | 'requestCancel'>;
  clock: Clock;
  /** IANA zone of the organisation's days: no gift is dated after today there (docs/decisions/012). */
  timeZone: string;
  /** Tells the job runner there is an import to commit. */
  nudge: () => void;
}) {
  async function load(id: number, executor: Executor = db, lock = false) {
    const row = await repository.find(executor, id, { lock });
    if (!row) throw createImportNotFoundError(`No import has id ${id}.`);
    return row;
  }

  /** Imports whose last step is before this are past keeping ({@link IMPORT_KEPT_DAYS}). */
  const keptSince = () => new Date(clock.now().getTime() - IMPORT_KEPT_DAYS * DAY_MS);

  function wrongStatus(row: ImportRow, action: string) {
    return createImportWrongStatusError(
      `The import of ${row.fileName} is ${row.status}: it cannot ${action}.`,
    );
  }

  /** The row importer of a donation, sale or product import, for one run by `userName`. */
  async function importerOf(row: ImportRow, executor: Executor, userName: string) {
    if (row.kind === 'subscribers') throw new Error('subscribers are imported by the service itself');
    return ROW_IMPORTERS[row.kind]({
      row,
      lookup: await repository.loadLookup(executor),
      today: calendarDay(clock.now(), timeZone),
      timeZone,
      userName,
    });
  }

  /** Checks every row against the register and stores what it found; returns the totals. */
  async function check(row: ImportRow) {
    if (row.kind !== 'subscribers') return checkRows(row, await importerOf(row, db, row.createdBy));
    const lookup = await repository.loadLookup(db);
    const today = calendarDay(clock.now(), timeZone);
    const seenEmails = new Map<string, number>();
    const seenIbans = new Map<string, number>();
    const totals = { valid: 0, invalid: 0, duplicates: 0 };
    let after = 0;
    for (;;) {
      const batch = await repository.rowsAfter(db, row.id, after, BATCH_ROWS);
      if (batch.length === 0) break;
      after = batch.at(-1)?.rowNumber ?? after;
      const read = batch.map((stored) => ({
        rowNumber: stored.rowNumber,
        ...readSubscriberRow(stored.cells, row.mapping, row.options, lookup, today),
      }));
      const inputs = read.flatMap((entry) => (entry.input ? [entry.input] : []));
      const found = await repository.findDuplicates(db, {
        emails: [...new Set(inputs.map(emailKey).filter(Boolean))],
        ibans: [...new Set(inputs.map(ibanKey).filter(Boolean))],
        names: inputs
          .filter((input) => input.postcode !== '')
          .map((input) => ({
            last: foldForSearch(input.lastName),
            first: foldForSearch(input.firstName),
            postcode: foldForSearch(input.postcode),
          })),
      });
      const checked: CheckedRow[] = read.map((entry) => {
        if (!entry.input) {
          totals.invalid += 1;
          return {
            rowNumber: entry.rowNumber,
            status: 'invalid',
            errors: entry.errors,
            matchId: null,
            matchReasons: [],
          };
        }
        const input = entry.input;
        const reasonsById = new Map<number, string[]>();
        const note = (id: number, reason: string) => {
          const reasons = reasonsById.get(id) ?? [];
          if (!reasons.includes(reason)) reasons.push(reason);
          reasonsById.set(id, reasons);
        };
        for (const match of found) {
          if (input.email !== '' && match.email === emailKey(input)) note(match.id, 'email');
          if (input.iban !== '' && match.iban === ibanKey(input)) note(match.id, 'iban');
          if (
            input.postcode !== '' &&
            match.last === foldForSearch(input.lastName) &&
            match.first === foldForSearch(input.firstName) &&
            match.postcode === foldForSearch(input.postcode)
          ) {
            note(match.id, 'name+postcode');
          }
        }
        const best = [...reasonsById].sort((a, b) => b[1].length - a[1].length || a[0] - b[0])[0];
        const earlier =
          (input.email !== '' ? seenEmails.get(emailKey(input)) : undefined) ??
          (input.iban !== '' ? seenIbans.get(ibanKey(input)) : undefined);
        if (input.email !== '' && !seenEmails.has(emailKey(input)))
          seenEmails.set(emailKey(input), entry.rowNumber);
        if (input.iban !== '' && !seenIbans.has(ibanKey(input)))
          seenIbans.set(ibanKey(input), entry.rowNumber);
        if (best) {
          totals.duplicates += 1;
          return {
            rowNumber: entry.rowNumber,
            status: 'duplicate',
            errors: [],
            matchId: best[0],
            matchReasons: best[1],
          };
        }
        if (earlier !== undefined) {
          totals.duplicates += 1;
          return {
            rowNumber: entry.rowNumber,
            status: 'duplicate',
            errors: [{ field: '', message: `Same email or IBAN as row ${earlier} of the file.` }],
            matchId: null,
            matchReasons: ['file'],
          };
        }
        totals.valid += 1;
        return { rowNumber: entry.rowNumber, status: 'valid', errors: [], matchId: null, matchReasons: [] };
      });
      await repository.saveChecks(db, row.id, checked);
    }
    return totals;
  }

  /**
   * The next batch of rows after row `after`; with an importer whose rows go in groups (a sale's lines),
   * cut before the group the batch ends in, which the next batch then starts with.
   */
  async function nextBatch(executor: Executor, row: ImportRow, after: number, importer?: RowImporter) {
    const batch = await repository.rowsAfter(executor, row.id, after, BATCH_ROWS);
    const groupKey = importer?.groupKey;
    if (!groupKey || batch.length < BATCH_ROWS) return batch;
    const last = groupKey(batch.at(-1)?.cells ?? []);
    if (last === undefined) return batch;
    let cut = batch.length;
    while (cut > 0 && groupKey(batch[cut - 1]?.cells ?? []) === last) cut -= 1;
    return cut === 0 ? batch : batch.slice(0, cut);
  }

  /** {@link check} for the kinds with a row importer: each batch checked by it and its findings stored. */
  async function checkRows(row: ImportRow, importer: RowImporter) {
    const totals = { valid: 0, invalid: 0, duplicates: 0 };
    let after = 0;
    for (;;) {
      const batch = await nextBatch(db, row, after, importer);
      if (batch.length === 0) break;
      after = batch.at(-1)?.rowNumber ?? after;
      const checked = await importer.check(db, batch);
      for (const entry of checked) {
        if (entry.status === 'valid') totals.valid += 1;
        else if (entry.status === 'invalid') totals.invalid += 1;
        else totals.duplicates += 1;
      }
      await repository.saveChecks(db, row.id, checked);
    }
    return totals;
  }

  /** Resolves the names a row lacks by creating them (the import allows it), then reads the row again. */
  async function readCreatingMissing(
    tx: Transaction,
    cells: string[],
    row: ImportRow,
    lookup: ReferenceLookup,
  ): Promise<ReadSubscriberRow> {
    const today = calendarDay(clock.now(), timeZone);
    const read = readSubscriberRow(cells, row.mapping, row.options, lookup, today);
    if (read.missing.length === 0) return read;
    const lists = new Set<ImportList>();
    for (const { list, name } of read.missing) {
      if (list === 'currency') continue;
      await repository.insertListItems(tx, list, [name]);
      lists.add(list);
    }
    const fresh = await repository.loadLookup(tx);
    for (const list of lists) lookup[list] = fresh[list];
    return readSubscriberRow(cells, row.mapping, row.options, lookup, today);
  }

  /** Tag ids of names, through the lookup (every name was checked or created before). */
  const tagIdsOf = (names: string[], lookup: ReferenceLookup) => [
    ...new Set(names.flatMap((name) => lookup.tags.get(foldForSearch(name)) ?? [])),
  ];

  /** Creates the subscribers of one batch, their tags and their history line. */
  async function createSubscribers(
    tx: Transaction,
    row: ImportRow,
    entries: Array<{ rowNumber: number; input: SaveSubscriber }>,
    lookup: ReferenceLookup,
    addedBy: string,
  ): Promise<CommittedRow[]> {
    if (entries.length === 0) return [];
    // PostgreSQL returns the rows of a multi-row INSERT … VALUES in the order of its values.
    const created = await tx
      .insert(subscribers)
      .values(entries.map(({ input }) => ({ ...toSubscriberColumns(input), addedBy })))
      .returning({ id: subscribers.id, version: subscribers.version });
    const tagRows = entries.flatMap(({ input }, index) =>
      tagIdsOf(input.tags, lookup).map((tagId) => ({ subscriberId: created[index]?.id ?? 0, tagId })),
    );
    if (tagRows.length > 0) await tx.insert(subscriberTags).values(tagRows);
    await tx.insert(subscriberHistory).values(
      created.map(({ id }) => ({
        subscriberId: id,
        userName: addedBy,
        description: `Imported from ${row.fileName}.`,
      })),
    );
    return created.map(({ id, version }, index) => ({
      rowNumber: entries[index]?.rowNumber ?? 0,
      action: 'created',
      recordId: id,
      recordVersion: version,
      before: null,
    }));
  }

  /**
   * Merges one row into the subscriber it matches: the row's filled-in cells replace the record's values,
   * its tags are added; one history line says what changed. Returns undefined with a reason when the
   * subscriber is gone or its record cannot be saved.
   */
  async function mergeSubscriber(
    tx: Transaction,
    row: ImportRow,
    entry: { rowNumber: number; matchId: number; read: ReadSubscriberRow; input: SaveSubscriber },
    lookup: ReferenceLookup,
    userName: string,
  ): Promise<CommittedRow | string> {
    const locked = await subscribersRepository.lockById(tx, entry.matchId);
    const found =
      locked && !locked.hidden ? await subscribersRepository.findById(tx, entry.matchId) : undefined;
    if (!locked || !found) return `The subscriber ${entry.matchId} it matches was deleted.`;
    const before = toSubscriberDto(found.row, found.tags);
    const beforeInput = saveSubscriberInputSchema.safeParse(before);
    if (!beforeInput.success)
      return `The subscriber ${entry.matchId} cannot be saved as it is: ${beforeInput.error.issues[0]?.message}`;
    const filled: Partial<SaveSubscriber> = {};
    for (const [field, value] of Object.entries(entry.read.values)) {
      if (value === '' || field === 'tags') continue;
      const key = SAVE_FIELD_OF[field] ?? (field as keyof SaveSubscriber);
      Object.assign(filled, { [key]: entry.input[key] });
    }
    const tagNames = [...before.tags, ...splitTags(entry.read.values.tags ?? '')];
    const after: SaveSubscriber = { ...beforeInput.data, ...filled, tags: tagNames };
    const updated = await subscribersRepository.update(
      tx,
      entry.matchId,
      locked.version,
      toSubscriberColumns(after),
    );
    if (!updated) return `The subscriber ${entry.matchId} changed while it was merged.`;
    await subscribersRepository.replaceTags(tx, entry.matchId, tagIdsOf(tagNames, lookup));
    const afterDto = toSubscriberDto(updated, [...new Set(tagNames)]);
    const names = await loadReferenceNames(tx, [before, afterDto]);
    const changes = describeSubscriberChanges(before, afterDto, names);
    await subscribersRepository.addHistory(tx, {
      subscriberId: entry.matchId,
      userName,
      description: changes
        ? `Merged with row ${entry.rowNumber} of the import of ${row.fileName}: ${changes}`
        : `Matched by row ${entry.rowNumber} of the import of ${row.fileName}; nothing changed.`,
    });
    return {
      rowNumber: entry.rowNumber,
      action: 'merged',
      recordId: entry.matchId,
      recordVersion: updated.version,
      before: { ...beforeInput.data, tags: before.tags },
    };
  }

  /** What the commit does with a row: a valid one is created and a duplicate skipped unless decided otherwise; an invalid one is skipped. */
  const decidedAction = (stored: { status: string | null; decision: 'create' | 'merge' | 'skip' | null }) =>
    stored.status === 'invalid'
      ? 'skip'
      : (stored.decision ?? (stored.status === 'valid' ? 'create' : 'skip'));

  /** {@link writeImport} for the kinds with a row importer: each batch's decided rows written by it. */
  async function writeRows(tx: Transaction, row: ImportRow, context: JobContext, importer: RowImporter) {
    const refused: ImportRowError[] = [];
    const counts = { created: 0, merged: 0, skipped: 0 };
    let after = 0;
    let processed = 0;
    for (;;) {
      if (context.shouldStop()) throw new CommitStopped();
      const batch = await nextBatch(tx, row, after, importer);
      if (batch.length === 0) break;
      after = batch.at(-1)?.rowNumber ?? after;
      const written = await importer.write(
        tx,
        batch.map((stored) => ({ stored, action: decidedAction(stored) })),
      );
      counts.skipped += written.skipped;
      refused.push(...written.refused);
      for (const entry of written.committed) {
        if (entry.action === 'created') counts.created += 1;
        else counts.merged += 1;
      }
      await repository.saveCommitted(tx, row.id, written.committed);
      processed += batch.length;
      context.progress(processed, row.rowCount);
    }
    if (refused.length > 0) throw new RowsRefused(refused);
    await importer.finish?.(tx);
    return { ...counts, processed };
  }

  /** The commit itself, in the caller's transaction: every row decided, created or merged, or the errors. */
  async function writeImport(tx: Transaction, row: ImportRow, context: JobContext) {
    const userName = context.job.startedBy ?? row.createdBy;
    if (row.kind !== 'subscribers') return writeRows(tx, row, context, await importerOf(row, tx, userName));
    const lookup = await repository.loadLookup(tx);
    const refused: ImportRowError[] = [];
    const counts = { created: 0, merged: 0, skipped: 0 };
    let after = 0;
    let processed = 0;
    for (;;) {
      if (context.shouldStop()) throw new CommitStopped();
      const batch = await repository.rowsAfter(tx, row.id, after, BATCH_ROWS);
      if (batch.length === 0) break;
      after = batch.at(-1)?.rowNumber ?? after;
      const creates: Array<{ rowNumber: number; input: SaveSubscriber }> = [];
      const committed: CommittedRow[] = [];
      for (const stored of batch) {
        const action = decidedAction(stored);
        if (action === 'skip') {
          counts.skipped += 1;
          continue;
        }
        const read = await readCreatingMissing(tx, stored.cells, row, lookup);
        if (!read.input) {
          for (const error of read.errors) refused.push({ row: stored.rowNumber, ...error });
          continue;
        }
        if (action === 'create') {
          creates.push({ rowNumber: stored.rowNumber, input: read.input });
          continue;
        }
        if (stored.matchId === null) {
          refused.push({
            row: stored.rowNumber,
            field: '',
            message: 'This row matches no subscriber to merge with.',
          });
          continue;
        }
        const merged = await mergeSubscriber(
          tx,
          row,
          { rowNumber: stored.rowNumber, matchId: stored.matchId, read, input: read.input },
          lookup,
          userName,
        );
        if (typeof merged === 'string') refused.push({ row: stored.rowNumber, field: '', message: merged });
        else committed.push(merged);
      }
      const created = await createSubscribers(tx, row, creates, lookup, userName);
      counts.created += created.length;
      counts.merged += committed.length;
      await repository.saveCommitted(tx, row.id, [...created, ...committed]);
      processed += batch.length;
      context.progress(processed, row.rowCount);
    }
    if (refused.length > 0) throw new RowsRefused(refused);
    return { ...counts, processed };
  }

  return {
    /**
     * `POST /api/imports`: reads the file (see {@link readImportFile}), stores its rows and guesses the
     * mapping from its headers. @throws 400 `imports.bad_file`.
     */
    upload: async (
      { kind, fileName, bytes }: { kind: ImportKind; fileName: string; bytes: Buffer },
      user: AuthUser,
    ): Promise<Import> => {
      const table = await readImportFile(bytes);
      const created = await db.transaction(async (tx) => {
        // Rows without a currency get the first of the list (the one set up first) unless staff choose another.
        const [firstCurrency] = await tx
          .select({ id: currencies.id })
          .from(currencies)
          .orderBy(asc(currencies.id))
          .limit(1);
        const row = await repository.insert(tx, {
          kind,
          fileName: fileName.slice(0, 255) || 'import',
          columns: columnSamples(table),
          rowCount: table.rows.length,
          mapping: guessMapping(IMPORT_FIELDS[kind], table.headers),
          options: { ...DEFAULT_OPTIONS, defaultCurrencyId: firstCurrency?.id ?? null },
          createdBy: user.fullName,
        });
        for (let start = 0; start < table.rows.length; start += UPLOAD_BATCH_ROWS) {
          await repository.insertRows(
            tx,
            row.id,
            start + 1,
            table.rows.slice(start, start + UPLOAD_BATCH_ROWS),
          );
        }
        return row;
      });
      return toImport(created);
    },

    /** `GET /api/imports`: the newest imports first. */
    list: async (): Promise<ImportSummary[]> => (await repository.list(db, LIST_LIMIT)).map(toSummary),

    /** `GET /api/imports/{id}`. @throws 404 */
    get: async (id: number): Promise<Import> => toImport(await load(id)),

    /**
     * `PUT /api/imports/{id}/mapping`: sets the mapping and options; a new dry run is then needed.
     * @throws 400 `imports.bad_mapping` naming an unknown field or column; 404; 409 once committed.
     */
    saveMapping: async (id: number, body: SaveImportMapping): Promise<Import> => {
      const row = await load(id);
      const fields = new Set(IMPORT_FIELDS[row.kind].map((field) => field.field));
      const errors = Object.entries(body.mapping).flatMap(([field, column]) => {
        if (!fields.has(field))
          return [{ path: `mapping.${field}`, message: `There is no field "${field}".` }];
        if (column !== null && column >= row.columns.length) {
          return [{ path: `mapping.${field}`, message: `The file has no column ${column + 1}.` }];
        }
        return [];
      });
      if (errors.length > 0)
        throw createBadImportMappingError(errors.map((error) => error.message).join(' '), errors);
      const mapping = Object.fromEntries([...fields].map((field) => [field, body.mapping[field] ?? null]));
      const saved = await repository.transition(db, id, ['uploaded', 'checked', 'failed'], {
        status: 'uploaded',
        mapping,
        options: body.options,
        dryValid: null,
        dryInvalid: null,
        dryDuplicates: null,
      });
      if (!saved) throw wrongStatus(row, 'be mapped again');
      return toImport(saved);
    },

    /**
     * `POST /api/imports/{id}/dry-run`: checks every row (once per mapping: later calls page through the
     * stored findings) and answers the totals and one page. Writes nothing to the register.
     * @throws 404; 409 once committed.
     */
    dryRun: async (id: number, query: ImportDryRunQuery): Promise<ImportDryRun> => {
      let row = await load(id);
      if (!['uploaded', 'checked', 'failed'].includes(row.status)) throw wrongStatus(row, 'be checked again');
      if (row.status !== 'checked' || row.dryValid === null) {
        const totals = await check(row);
        const checked = await repository.transition(db, id, ['uploaded', 'checked', 'failed'], {
          status: 'checked',
          dryValid: totals.valid,
          dryInvalid: totals.invalid,
          dryDuplicates: totals.duplicates,
        });
        if (!checked) throw wrongStatus(await load(id), 'be checked again');
        row = checked;
      }
      const page = await repository.checkedPage(db, id, {
        status: query.status,
        offset: query.listfrom - 1,
        limit: query.listlength,
      });
      const mapped = Object.entries(row.mapping).filter(
        (entry): entry is [string, number] => entry[1] !== null,
      );
      return {
        valid: row.dryValid ?? 0,
        invalid: row.dryInvalid ?? 0,
        duplicates: row.dryDuplicates ?? 0,
        count: page.count,
        rows: page.rows.map((stored) => ({
          row: stored.rowNumber,
          status: stored.status ?? 'invalid',
          values: Object.fromEntries(mapped.map(([field, column]) => [field, stored.cells[column] ?? ''])),
          errors: stored.errors ?? [],
          matchId: stored.matchId,
          matchReasons: stored.matchReasons ?? [],
        })),
      };
    },

    /**
     * `POST /api/imports/{id}/commit`: records the decisions and queues the `imports.commit` job.
     * @throws 400 a decision for a row the file does not have; 404; 409 unless freshly dry-run.
     */
    commit: async (id: number, body: CommitImport, user: AuthUser): Promise<Import> => {
      const queued = await db.transaction(async (tx) => {
        const row = await load(id, tx, true);
        if (row.status !== 'checked') throw wrongStatus(row, 'be committed (run the dry run first)');
        const outside = body.decisions.find((decision) => decision.row > row.rowCount);
        if (outside) {
          throw createBadImportMappingError(`The file has no row ${outside.row}.`, [
            { path: 'decisions', message: `The file has no row ${outside.row}.` },
          ]);
        }
        await repository.saveDecisions(tx, id, body.decisions);
        const job = await jobs.enqueue(tx, {
          kind: 'imports.commit',
          title: `Import of ${row.fileName}`,
          payload: { importId: id },
          singletonKey: `imports.commit:${id}`,
          startedBy: user.fullName,
          maxAttempts: 3,
          leaseSeconds: 120,
        });
        return repository.transition(tx, id, ['checked'], {
          status: 'queued',
          jobId: job.id,
          processed: 0,
          total: row.rowCount,
          created: 0,
          merged: 0,
          skipped: 0,
          errors: [],
          failure: null,
        });
      });
      nudge();
      if (!queued) throw createImportNotFoundError(`No import has id ${id}.`);
      return toImport(queued);
    },

    /** The `imports.commit` job: writes the whole import in one transaction, or nothing. */
    runJob: async (context: JobContext): Promise<undefined | 'stopped'> => {
      const id = Number(context.job.payload.importId);
      const row = await repository.find(db, id);
      if (!row || !['queued', 'running'].includes(row.status)) return undefined;
      await repository.transition(db, id, ['queued', 'running'], { status: 'running' });
      try {
        if (row.kind !== 'subscribers') {
          const importer = await importerOf(row, db, context.job.startedBy ?? row.createdBy);
          await importer.beforeCommit?.(db);
        }
        await db.transaction(async (tx) => {
          const done = await writeImport(tx, row, context);
          await repository.transition(tx, id, ['running'], {
            status: 'committed',
            ...done,
            committedAt: clock.now(),
          });
        });
        return undefined;
      } catch (error) {
        if (error instanceof CommitStopped && !context.cancelRequested()) return 'stopped';
        if (
          !(error instanceof CommitStopped || error instanceof RowsRefused) &&
          databaseUnavailableReason(error)
        ) {
          throw error;
        }
        await repository.transition(db, id, ['running', 'queued'], {
          status: 'failed',
          processed: 0,
          errors: error instanceof RowsRefused ? error.rows.slice(0, MAX_REPORTED) : [],
          failure:
            error instanceof CommitStopped
              ? 'Cancelled: nothing was imported.'
              : error instanceof RowsRefused
                ? `${error.message}: nothing was imported.`
                : `The import failed and nothing was imported: ${error instanceof Error ? error.message : String(error)}`,
        });
        return undefined;
      }
    },

    /** Whether an import is past keeping (the `imports.expire` job's `hasWork`). */
    hasExpired: () => repository.hasExpiring(db, keptSince()),

    /**
     * The `imports.expire` job: imports whose commit, undo or (never committed) upload is
     * {@link IMPORT_KEPT_DAYS} days old lose the rows of their file, personal data that only undo and
     * the dry run needed (GDPR art. 5(1)(e)); what they wrote stays. Resolves with how many expired.
     */
    expire: async () =>
      (await db.transaction((tx) => repository.expire(tx, keptSince(), EXPIRE_BATCH))).length,

    /**
     * `POST /api/imports/{id}/undo`: deletes the subscribers the import created and puts back the ones it
     * merged into, in one transaction. @throws 404; 409 `imports.changed_since` naming the subscribers
     * changed or given donations, sales or receipts since; 409 unless committed, or once committed more
     * than {@link IMPORT_KEPT_DAYS} days ago.
     */
    undo: async (id: number, user: AuthUser): Promise<Import> => {
      const undone = await db.transaction(async (tx) => {
        const row = await load(id, tx, true);
        if (row.status !== 'committed') throw wrongStatus(row, 'be undone');
        if (row.committedAt && row.committedAt < keptSince()) {
          throw createImportWrongStatusError(
            `The import of ${row.fileName} was committed more than ${IMPORT_KEPT_DAYS} days ago: it can no longer be undone.`,
          );
        }
        const written = await repository.committedRows(tx, id);
        const ids = written.flatMap((entry) => (entry.recordId === null ? [] : [entry.recordId]));
        if (row.kind !== 'subscribers') {
          const importer = await importerOf(row, tx, user.fullName);
          const refusal = await importer.undo(tx, written);
          if (refusal) throw createImportChangedSinceError(refusal);
          return repository.transition(tx, id, ['committed'], { status: 'undone', undoneAt: clock.now() });
        }
        const current = ids.length
          ? await tx
              .select({
                id: subscribers.id,
                version: subscribers.version,
                title: subscribers.title,
                firstName: subscribers.firstName,
                lastName: subscribers.lastName,
              })
              .from(subscribers)
              .where(idIn(subscribers.id, ids))
              .for('update')
          : [];
        const byId = new Map(current.map((subscriber) => [subscriber.id, subscriber]));
        const createdIds = written.flatMap((entry) =>
          entry.action === 'created' && entry.recordId !== null ? [entry.recordId] : [],
        );
        const owner = sql.raw('subscriber_id');
        const used = new Set(
          createdIds.length === 0
            ? []
            : (
                await queryRows<{ id: number }>(
                  tx,
                  sql`select subscriber_id as id from donations where ${idIn(owner, createdIds)}
                      union select subscriber_id from sales where ${idIn(owner, createdIds)}
                      union select subscriber_id from receipts where ${idIn(owner, createdIds)}`,
                )
              ).map((found) => Number(found.id)),
        );
        const changed = written.filter((entry) => {
          const now = entry.recordId === null ? undefined : byId.get(entry.recordId);
          return !now || now.version !== entry.recordVersion || used.has(now.id);
        });
        if (changed.length > 0) {
          const named = changed.map((entry) => {
            const now = entry.recordId === null ? undefined : byId.get(entry.recordId);
            return now ? `${subscriberName(now)} (${now.id})` : `subscriber ${entry.recordId} (deleted)`;
          });
          throw createImportChangedSinceError(
            `These subscribers were changed since the import, or given donations or sales: ${namedFew(named)}. Undoing it would lose that work.`,
          );
        }
        if (createdIds.length > 0) await tx.delete(subscribers).where(idIn(subscribers.id, createdIds));
        const lookup = await repository.loadLookup(tx);
        for (const entry of written) {
          if (entry.action !== 'merged' || entry.recordId === null || !entry.before) continue;
          const before = entry.before as SaveSubscriber;
          const restored = await subscribersRepository.update(
            tx,
            entry.recordId,
            entry.recordVersion ?? 0,
            toSubscriberColumns(before),
          );
          if (!restored) continue;
          await subscribersRepository.replaceTags(tx, entry.recordId, tagIdsOf(before.tags, lookup));
          await subscribersRepository.addHistory(tx, {
            subscriberId: entry.recordId,
            userName: user.fullName,
            description: `The import of ${row.fileName} was undone: the record is as before it.`,
          });
        }
        return repository.transition(tx, id, ['committed'], { status: 'undone', undoneAt: clock.now() });
      });
      if (!undone) throw createImportNotFoundError(`No import has id ${id}.`);
      return toImport(undone);
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
