import { toCardinal, toCurrency } from 'n2words/fr-FR';

/**
 * An amount in French words, as a tax receipt writes it (Cerfa n° 11580):
 * `125.5, 'EUR'` -> `cent vingt-cinq euros et cinquante centimes`;
 * `80, 'CHF'` -> `quatre-vingts francs suisses`. Amounts are in units with at most 2 decimals.
 */
export function amountInFrenchWords(units: number, currency: 'EUR' | 'CHF'): string {
  const cents = Math.round(units * 100);
  if (currency === 'EUR') return toCurrency(cents / 100);
  const francs = Math.trunc(cents / 100);
  const centimes = cents % 100;
  const parts: string[] = [];
  if (francs > 0 || centimes === 0) {
    parts.push(`${toCardinal(francs)} ${francs > 1 ? 'francs suisses' : 'franc suisse'}`);
  }
  if (centimes > 0) parts.push(`${toCardinal(centimes)} ${centimes > 1 ? 'centimes' : 'centime'}`);
  return parts.join(' et ');
}
