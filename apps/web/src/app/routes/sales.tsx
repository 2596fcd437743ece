import { useSearchParams } from 'react-router';
import { SalesScreen } from '../../features/sales/components/sales-screen.tsx';
import { salesSubscriberFromParams } from '../../features/sales/sales-route-params.ts';

/**
 * sales (part 2 §2 routes, §2.5): the search of all sales, or with `subid, fn, ln, sy` the sales of one
 * subscriber. A change of subscriber clears the screen and loads the new list (§4 Sales list).
 */
export function SalesRoute() {
  const [params] = useSearchParams();
  const subscriber = salesSubscriberFromParams(params);
  return <SalesScreen key={subscriber ? `subscriber-${subscriber.id}` : 'all'} subscriber={subscriber} />;
}
