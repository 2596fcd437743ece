import { ComingSoon } from '../../components/coming-soon.tsx';

/** Subscription types list (part 1 §2 Reference-data lists, route subs). Not built yet: heading and a one-line notice. */
export function SubscriptionTypesRoute() {
  return <ComingSoon title="Subscription Types" />;
}
