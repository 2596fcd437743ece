import type { ComboboxItem, ComboboxParsedItem, ComboboxParsedItemGroup, OptionsFilter } from '@mantine/core';

const isGroup = (item: ComboboxParsedItem): item is ComboboxParsedItemGroup => 'group' in item;

/**
 * French comparison that ignores accents and case (`Émile` sorts with `E`, between `Edith` and `Eva`);
 * digits and punctuation as Intl orders them. Part 2 §2.1 (names searched and listed as staff type them).
 */
const collator = new Intl.Collator('fr', { sensitivity: 'base' });

/** Compares two texts in French order, accents and case aside: a `sort` comparator. */
export function compareFrench(a: string, b: string): number {
  return collator.compare(a, b);
}

/** `items` sorted by `key` in French order ({@link compareFrench}), as a new array. */
export function sortFrench<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareFrench(key(a), key(b)));
}

/** The text without accents, lower case and trimmed: `  Émile ` → `emile`. */
export function foldFrench(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/** True when `text` contains `search`, accents and case aside (`emile` finds `Émile`); an empty search matches. */
export function includesFrench(text: string, search: string): boolean {
  return foldFrench(text).includes(foldFrench(search));
}

/**
 * The options filter of every searchable Select and MultiSelect (set in the theme): Mantine's default
 * filter, accent-insensitive. Groups keep their label; at most `limit` options.
 */
export const frenchOptionsFilter: OptionsFilter = ({ options, search, limit }) => {
  const result: ComboboxParsedItem[] = [];
  for (const item of options) {
    if (result.length === limit) break;
    if (isGroup(item)) {
      result.push({
        group: item.group,
        items: frenchOptionsFilter({ options: item.items, search, limit: limit - result.length }).filter(
          (option): option is ComboboxItem => !isGroup(option),
        ),
      });
    } else if (includesFrench(item.label, search)) {
      result.push(item);
    }
  }
  return result;
};
