import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readStoredFilters, useStoredFilters } from './use-stored-filters.ts';

const EMPTY = { name: '', country: '' as number | '' };

describe('useStoredFilters', () => {
  it('restores stored filters on mount, saves and clears them', () => {
    localStorage.setItem('test.filters', JSON.stringify({ name: 'Dupont', unknown: 1 }));
    const { result } = renderHook(() => useStoredFilters('test.filters', EMPTY));
    expect(result.current.filters).toEqual({ name: 'Dupont', country: '' });
    act(() => result.current.save({ name: 'Zoé', country: 3 }));
    expect(JSON.parse(localStorage.getItem('test.filters') ?? '')).toEqual({ name: 'Zoé', country: 3 });
    expect(result.current.filters).toEqual({ name: 'Zoé', country: 3 });
    act(() => result.current.clear());
    expect(localStorage.getItem('test.filters')).toBeNull();
    expect(result.current.filters).toEqual(EMPTY);
  });

  it('ignores unreadable values and fields of another type', () => {
    localStorage.setItem('bad', '{oops');
    expect(readStoredFilters('bad', EMPTY)).toEqual(EMPTY);
    localStorage.setItem('typed', JSON.stringify({ name: 42 }));
    expect(readStoredFilters('typed', EMPTY)).toEqual(EMPTY);
  });
});
