import { ComingSoon } from '../../components/coming-soon.tsx';

/** Subscriber history (part 2 §2.3). Not built yet: heading and a one-line notice. */
export function SubscriberHistoryRoute() {
  return <ComingSoon title="History" />;
}
