import { type ReferenceItem, referenceItemListSchema } from '@back-office/contract/reference-lists';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The reference lists of the donation search (part 2 §2.4: Country "a list by fullName", Category
 * "list by fullName"): `GET /api/ctries` and `GET /api/cats` (part 1 §7 Reference data), sorted by name.
 * The query keys are those of the reference-list screens, so an edit there refreshes these too.
 */

type SearchList = 'ctries' | 'cats';

function byName(items: ReferenceItem[]): ReferenceItem[] {
  return [...items].sort((a, b) => a.name.localeCompare(b.name, 'fr'));
}

function searchListOptions(list: SearchList) {
  return queryOptions({
    queryKey: ['reference-lists', list] as const,
    queryFn: ({ signal }) => apiRequest(`/api/${list}`, { schema: referenceItemListSchema, signal }),
    select: byName,
  });
}

/** The countries, by name (part 2 §2.4 Country). */
export function useCountries() {
  return useQuery(searchListOptions('ctries'));
}

/** The categories, by name (part 2 §2.4 Category). */
export function useCategories() {
  return useQuery(searchListOptions('cats'));
}
