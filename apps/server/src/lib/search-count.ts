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
 */
export async function countSearchMatches(
  db: Executor,
  matches: SQLWrapper,
  budgetMs: number,
): Promise<SearchCount> {
  const started = performance.now();
  const capped = await countRows(db, cappedMatches(matches));
  if (capped <= EXACT_COUNT_LIMIT) return { count: capped, countIsExact: true };
  const cappedMs = performance.now() - started;
  const estimate = Math.max(await plannedRows(db, matches), capped);
  if (budgetMs > 0 && (cappedMs * estimate) / capped <= budgetMs) {
    return { count: await countRows(db, sql`select 1 from ${matches} m`), countIsExact: true };
  }
  return { count: roundEstimate(estimate), countIsExact: false };
}

/**
 * True when a search's matches are few enough to collect in full and sort (an exact count of at most
 * {@link EXACT_COUNT_LIMIT}): a few milliseconds, where walking the sort order's index for matches
 * that cluster along it, or that are rare, reads tens of thousands of entries for one page. A search
 * then orders its page by an expression no index gives (`name || ''`, `date + 0`), and PostgreSQL
 * collects the matches through the filter's own indexes. More matches are dense enough for the walk.
 */
export function fewMatches(total: SearchCount): boolean {
  return total.countIsExact && total.count <= EXACT_COUNT_LIMIT;
}

/** {@link fewMatches} for a search that shows no count: its matches counted up to the limit, no further. */
export async function hasFewMatches(db: Executor, matches: SQLWrapper): Promise<boolean> {
  return (await countRows(db, cappedMatches(matches))) <= EXACT_COUNT_LIMIT;
}

const cappedMatches = (matches: SQLWrapper) => sql`select 1 from ${matches} m limit ${EXACT_COUNT_LIMIT + 1}`;

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
