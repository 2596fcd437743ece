import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../db/client.ts';

/** Up to this many matches a search's count is always exact (part 2 §7 searches; docs/decisions/016). */
export const EXACT_COUNT_LIMIT = 10_000;

/** A search's count (part 2 §7): `countIsExact` false means `count` is the planner's estimate, rounded. */
export type SearchCount = { count: number; countIsExact: boolean };

/**
 * Counts the rows of a search without letting a huge result slow every search down: the matches are
 * counted exactly up to {@link EXACT_COUNT_LIMIT}; above it, exactly again when the full count is
 * expected to take at most `budgetMs` (predicted from the pace of the capped count, so that it works
 * on PGlite, which cannot interrupt a statement), else estimated by the query planner and marked as
 * such. The estimate is never below what was counted, and is rounded to two significant digits.
 *
 * @param matches the search's rows: a select of the matching rows, without order, limit or offset.
 * @param budgetMs milliseconds an exact count above the limit may take (`SEARCH_COUNT_BUDGET_MS`); 0
 *   estimates every count above the limit.
 * @param moreThanLimit already known from {@link collectFewMatches}: more than
 *   {@link EXACT_COUNT_LIMIT} matches, read through `matches` (whose pace predicts the full count's).
 * @param expectedFrom the same rows as the planner should estimate them, when `matches` is written
 *   for speed rather than for its statistics (see {@link collectFewMatches}); `matches` by default.
 */
export async function countSearchMatches(
  db: Executor,
  matches: SQLWrapper,
  budgetMs: number,
  moreThanLimit?: ManyMatches,
  expectedFrom: SQLWrapper = matches,
): Promise<SearchCount> {
  const { capped, cappedMs } = moreThanLimit ?? (await timedCappedCount(db, matches));
  if (capped <= EXACT_COUNT_LIMIT) return { count: capped, countIsExact: true };
  const estimate = Math.max(moreThanLimit?.expected ?? (await plannedRows(db, expectedFrom)), capped);
  if (budgetMs > 0 && (cappedMs * estimate) / capped <= budgetMs) {
    return { count: await countRows(db, sql`select 1 from ${matches} m`), countIsExact: true };
  }
  return { count: roundEstimate(estimate), countIsExact: false };
}

/**
 * More than {@link EXACT_COUNT_LIMIT} matches: `capped` of them read in `cappedMs` milliseconds, and
 * the planner's `expected` count when it was asked.
 */
export type ManyMatches = { capped: number; cappedMs: number; expected?: number };

/** What {@link collectFewMatches} found. */
export type CollectedMatches<Row> =
  | { few: true; count: number; rows: Row[] }
  | ({ few: false } & ManyMatches);

/**
 * Matches a search collects and sorts for its page when the planner expects few more than
 * {@link EXACT_COUNT_LIMIT} (up to {@link SORTED_WHEN_EXPECTED}): that is still quicker than walking
 * the order's index when the matches cluster along it (a last name with "sch" in France at a million
 * subscribers: 10,001 of its 12,000 matches read, then 226,000 name-index entries walked for the first
 * page, 76–87 ms; all of them collected and sorted, 55 ms, with their exact count). Twice the usual
 * limit: an estimate too low costs at most twice the reading.
 */
export const SORTED_MATCHES_LIMIT = 2 * EXACT_COUNT_LIMIT;

/**
 * The planner's expected count up to which a search collects up to {@link SORTED_MATCHES_LIMIT}
 * matches. Above the limit on purpose: its estimate of a name in one country is off by twice (24,000
 * expected for 12,000 found: it takes the name and the country as independent). The names' finer
 * statistics (migration 0054) keep such estimates steady from one ANALYZE to the next.
 */
export const SORTED_WHEN_EXPECTED = 3 * EXACT_COUNT_LIMIT;

/**
 * Reads the matches of a search once, up to {@link EXACT_COUNT_LIMIT} + 1 of them with the keys of
 * their order (up to {@link SORTED_MATCHES_LIMIT} + 1 when `expectedFrom` is given and the planner expects few
 * more), and when there are no more than that returns their exact count and the rows of one page,
 * sorted from what was read (docs/decisions/016). Few matches are found through the filter's own indexes in a few
 * milliseconds, where walking the sort order's index for matches that cluster along it, or that are
 * rare, reads tens of thousands of entries for one page; and one scan serves both the count and the
 * page, where a count and then the same matches collected and sorted again took two. With more matches
 * it says how many it read, how long that took (for {@link countSearchMatches}'s budget) and the
 * planner's expected count, and the caller reads its page by walking the order's index: so many
 * matches are dense enough along it.
 *
 * @param matches a select of the matching rows with an `id` column and the columns `order` names,
 *   without order, limit or offset.
 * @param order the page's ORDER BY over those columns, ending with `id` (e.g. sql`date desc, id desc`).
 * @param page the search's page: `listlength` rows from the `listfrom`th (1-based).
 * @param readPage reads the rows of the page's ids (none when the page is past the end).
 * @param options.expectedFrom the same matches as the planner should estimate them (a last name
 *   compared in its own column, whose statistics it has, where `matches` goes through the list of
 *   names): their expected count is read first (one more planning of the search). For an order whose
 *   matches cluster, such as names, or are sparse along it, such as a name's gifts among all gifts.
 * @param options.sorted up to how many expected matches (`whenExpected`) the search collects up to
 *   `limit` of them; {@link SORTED_WHEN_EXPECTED} and {@link SORTED_MATCHES_LIMIT} by default.
 */
export async function collectFewMatches<Row>(
  db: Executor,
  matches: SQLWrapper,
  order: SQL,
  page: { listfrom: number; listlength: number },
  readPage: (ids: number[]) => Promise<Row[]>,
  {
    expectedFrom,
    sorted = { whenExpected: SORTED_WHEN_EXPECTED, limit: SORTED_MATCHES_LIMIT },
  }: { expectedFrom?: SQLWrapper; sorted?: { whenExpected: number; limit: number } } = {},
): Promise<CollectedMatches<Row>> {
  const started = performance.now();
  const expected = expectedFrom ? await plannedRows(db, expectedFrom) : undefined;
  const limit = expected !== undefined && expected <= sorted.whenExpected ? sorted.limit : EXACT_COUNT_LIMIT;
  const [row] = await queryRows<{ n: number | string; ids: Array<number | string> | null }>(
    db,
    sql`with m as materialized (select * from (${matches}) s limit ${limit + 1})
        select (select count(*) from m) as n,
               array(select id from m order by ${order} limit ${page.listlength} offset ${page.listfrom - 1}) as ids`,
  );
  const count = Number(row?.n ?? 0);
  if (count > limit) return { few: false, capped: count, cappedMs: performance.now() - started, expected };
  const ids = (row?.ids ?? []).map(Number);
  return { few: true, count, rows: ids.length > 0 ? await readPage(ids) : [] };
}

const cappedMatches = (matches: SQLWrapper) => sql`select 1 from ${matches} m limit ${EXACT_COUNT_LIMIT + 1}`;

/** The matches counted up to {@link EXACT_COUNT_LIMIT} + 1, and how long that took (ms). */
async function timedCappedCount(db: Executor, matches: SQLWrapper) {
  const started = performance.now();
  const capped = await countRows(db, cappedMatches(matches));
  return { capped, cappedMs: performance.now() - started };
}

async function countRows(db: Executor, rows: SQL): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(db, sql`select count(*) as n from (${rows}) counted`);
  return Number(row?.n ?? 0);
}

/** The rows PostgreSQL's planner expects `matches` to return (`EXPLAIN`, nothing is run). */
async function plannedRows(db: Executor, matches: SQLWrapper): Promise<number> {
  const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
    db,
    sql`explain (format json) select 1 from ${matches} m`,
  );
  const raw = row?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
    Plan?: { 'Plan Rows'?: number };
  }>;
  return Math.round(plan[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** 251,234 → 250,000; 10,001 → 10,000: an estimate shows no false precision. */
export function roundEstimate(value: number): number {
  if (value < 100) return value;
  const unit = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.round(value / unit) * unit;
}
