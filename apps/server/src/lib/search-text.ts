import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Folds text for case- and accent-insensitive prefix search: `Zoé` and `ZOE` both become `zoe`
 * (part 2 §2.1). Stored beside the original in `search_*` columns.
 */
export function foldForSearch(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/** The folded input with `%`, `_` and `\` escaped, so that `LIKE` matches it literally. */
const likeLiteral = (folded: string) => folded.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Escapes `%`, `_` and `\` so folded user input is matched literally by `LIKE 'input%'`. */
export function likePrefix(value: string): string {
  return `${likeLiteral(foldForSearch(value))}%`;
}

/** Names shorter than this match as prefixes: a trigram index needs three characters. */
export const NAME_ANYWHERE_MIN_LENGTH = 3;

/**
 * The `LIKE` pattern of a name filter (first name, last name, association; docs/decisions/016): the
 * folded input anywhere in the name from {@link NAME_ANYWHERE_MIN_LENGTH} characters on (`uran` finds
 * `Durand`, through the trigram indexes of migration 0022), a prefix below (`du` finds `Dupont`, not
 * `Perdu`: two letters anywhere would match half the register and scan all of it).
 */
export function likeName(value: string): string {
  const folded = foldForSearch(value);
  return `${folded.length >= NAME_ANYWHERE_MIN_LENGTH ? '%' : ''}${likeLiteral(folded)}%`;
}

/**
 * `fold_text(value)` in SQL (migration 0021_accent_fold): {@link foldForSearch} without the trim, for
 * French ordering and contains-searches in the database (`Émile` sorts with `E`; part 2 §2.1).
 */
export function foldSql(value: SQLWrapper): SQL {
  return sql`fold_text(${value})`;
}
