import { SubscribersSearch } from '../../features/subscribers/components/subscribers-search.tsx';

/** /subscribers: the subscribers search (part 2 §2.1). */
export function SubscribersRoute() {
  return <SubscribersSearch />;
}
