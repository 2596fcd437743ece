import { describe, expect, it } from 'vitest';
import { BLANK, LOOKUPS } from './components/subscriber-test-data.tsx';
import {
  addressChangedNote,
  appendToNotes,
  currencyForCountry,
  defaultCurrencyId,
  subscriberHeading,
  toFormValues,
  toSavePayload,
  validateSubscriberForm,
} from './subscriber-form-values.ts';

describe('subscriber form rules (part 2 §5)', () => {
  it('gives the Required texts of the contract', () => {
    const errors = validateSubscriberForm(toFormValues(BLANK));
    expect(errors).toMatchObject({
      firstName: 'First name.',
      lastName: 'Last name.',
      currencyId: 'Currency.',
    });
  });

  it('selects the Swiss currency for a country whose name contains suisse, whatever the case', () => {
    const countries = [...LOOKUPS.countries, { id: 12, name: 'Confédération SUISSE' }];
    expect(currencyForCountry(11, countries, LOOKUPS.currencies)).toBe(1);
    expect(currencyForCountry(12, countries, LOOKUPS.currencies)).toBe(1);
    expect(currencyForCountry(10, countries, LOOKUPS.currencies)).toBeNull();
    expect(currencyForCountry(11, countries, [{ id: 2, name: 'EURO' }])).toBeNull();
  });

  it('preselects EURO, else the first currency', () => {
    expect(defaultCurrencyId(LOOKUPS.currencies)).toBe(2);
    expect(defaultCurrencyId([{ id: 9, name: 'Dollar' }])).toBe(9);
    expect(defaultCurrencyId([])).toBe(0);
  });

  it('writes the Copy to Notes block without empty lines', () => {
    const block = addressChangedNote(
      { address1: '3 rue du Rhône', address2: '', address3: ' ', town: 'Genève', postcode: '1204' },
      'Suisse',
      new Date(2025, 0, 9),
    );
    expect(block).toBe('Address changed (09-01-2025):\n3 rue du Rhône\nGenève\n1204\nSuisse');
    expect(appendToNotes('', block)).toBe(block);
    expect(appendToNotes('Ancienne note.\n', block)).toBe(`Ancienne note.\n\n${block}`);
  });

  it('sends empty dates as null, empty numbers as 0, and no version for a new record', () => {
    const payload = toSavePayload({ ...toFormValues(BLANK), amount: '', copies: '', startDate: '' });
    expect(payload).toMatchObject({ amount: 0, copies: 0, startDate: null, endDate: null });
    expect(payload).not.toHaveProperty('version');
    expect(toSavePayload({ ...toFormValues(BLANK), version: 3 })).toMatchObject({ version: 3 });
  });

  it('heads the screen with title, first and last name, or New Subscriber', () => {
    expect(subscriberHeading(BLANK)).toBe('New Subscriber');
    expect(subscriberHeading({ id: 4, title: 'Mme', firstName: 'Zoé', lastName: 'Dupont' })).toBe(
      'Mme Zoé Dupont',
    );
    expect(subscriberHeading({ id: 4, title: '', firstName: 'Zoé', lastName: 'Dupont' })).toBe('Zoé Dupont');
  });
});
