import { ComingSoon } from '../../components/coming-soon.tsx';

/** Subscribers search (part 2 §2.1). Not built yet: heading and a one-line notice. */
export function SubscribersRoute() {
  return <ComingSoon title="Subscribers" />;
}
