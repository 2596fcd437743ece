import { ReferenceListScreen } from '../../features/reference-lists/components/reference-list-screen.tsx';
import { subscriptionTypesList } from '../../features/reference-lists/reference-list-configs.ts';

/** /subs: the Subscription Types list (part 1 §2 Reference-data lists). */
export function SubscriptionTypesRoute() {
  return <ReferenceListScreen list={subscriptionTypesList} />;
}
