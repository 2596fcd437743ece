import type { SalesSubscriber } from './components/sales-screen.tsx';

/**
 * The subscriber of the Sales route's params `subid, fn, ln, sy` (part 2 §2 routes: "sales | optional
 * params subid, fn, ln, sy"), or null when there is none (the search of all sales).
 */
export function salesSubscriberFromParams(params: URLSearchParams): SalesSubscriber | null {
  const id = Number(params.get('subid'));
  if (!Number.isInteger(id) || id <= 0) return null;
  return {
    id,
    firstName: params.get('fn') ?? '',
    lastName: params.get('ln') ?? '',
    currencySymbol: params.get('sy') ?? '',
  };
}
