import { useSearchParams } from 'react-router';
import {
  DonationsScreen,
  type DonationsSubscriber,
} from '../../features/donations/components/donations-screen.tsx';

/** Part 2 §9: the currency shown when the link carries no symbol (EURO is the default currency, §5). */
const DEFAULT_SYMBOL = '€';

/** Reads the optional subscriber of the donations route: `subid, fn, ln, sy` (part 2 §2 Routes). */
export function subscriberFromParams(params: URLSearchParams): DonationsSubscriber | null {
  const id = Number(params.get('subid') ?? '');
  if (!Number.isInteger(id) || id <= 0) return null;
  return {
    id,
    firstName: params.get('fn') ?? '',
    lastName: params.get('ln') ?? '',
    symbol: params.get('sy') || DEFAULT_SYMBOL,
  };
}

/**
 * Donations (part 2 §2.4) at `#/donations`, optionally `?subid=&fn=&ln=&sy=`. The screen is keyed by
 * the subscriber, so changing it clears the list and searches again (part 2 §4).
 */
export function DonationsRoute() {
  const [params] = useSearchParams();
  const subscriber = subscriberFromParams(params);
  return <DonationsScreen key={subscriber ? `subscriber-${subscriber.id}` : 'all'} subscriber={subscriber} />;
}
