import { subscriberSearchQuerySchema } from '@back-office/contract/subscribers';
import { describe, expect, it } from 'vitest';
import { parseSearchQuery, searchQueryString } from './search-query.ts';

describe('search queries under the contract schema', () => {
  it('writes the given parameters in the schema order, empty ones kept, missing ones left out', () => {
    expect(searchQueryString(subscriberSearchQuerySchema, { listlength: 50, name: 'Dupont', town: '' })).toBe(
      'name=Dupont&town=&listlength=50',
    );
  });

  it('reads parameters back with the schema, dropping a refused one and filling defaults', () => {
    const params = new URLSearchParams('name=%20Dupont&addedafter=2025-02-30&country=7&other=x');
    expect(parseSearchQuery(subscriberSearchQuerySchema, params)).toEqual({
      name: 'Dupont',
      country: 7,
      listfrom: 1,
      listlength: 50,
    });
  });
});
