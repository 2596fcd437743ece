import { describe, expect, it } from 'vitest';
import { compareFrench, foldFrench, frenchOptionsFilter, includesFrench, sortFrench } from './french-text.ts';

describe('French text', () => {
  it('sorts accented names with their plain letter, case aside', () => {
    expect(['Zoé', 'Eva', 'émile', 'Édith', 'alain', 'Bernard'].sort(compareFrench)).toEqual([
      'alain',
      'Bernard',
      'Édith',
      'émile',
      'Eva',
      'Zoé',
    ]);
    expect(sortFrench([{ name: 'Été' }, { name: 'Avril' }], (item) => item.name)).toEqual([
      { name: 'Avril' },
      { name: 'Été' },
    ]);
  });

  it('finds accented text from a plain search and the other way round', () => {
    expect(foldFrench('  Émile ÇA ')).toBe('emile ca');
    expect(includesFrench('Émile Zola', 'emile')).toBe(true);
    expect(includesFrench('Emile Zola', 'ÉMI')).toBe(true);
    expect(includesFrench('Saint-Étienne', 'etienne')).toBe(true);
    expect(includesFrench('Genève', 'lyon')).toBe(false);
  });

  it('filters Select options accent-insensitively, groups included, up to the limit', () => {
    const options = [
      { value: '1', label: 'Émile' },
      { value: '2', label: 'Eva' },
      { group: 'Villes', items: [{ value: '3', label: 'Saint-Étienne' }] },
    ];
    expect(frenchOptionsFilter({ options, search: 'emi', limit: 10 })).toEqual([
      { value: '1', label: 'Émile' },
      { group: 'Villes', items: [] },
    ]);
    expect(frenchOptionsFilter({ options, search: 'ETIENNE', limit: 10 })).toEqual([
      { group: 'Villes', items: [{ value: '3', label: 'Saint-Étienne' }] },
    ]);
    expect(frenchOptionsFilter({ options, search: '', limit: 1 })).toEqual([{ value: '1', label: 'Émile' }]);
  });
});
