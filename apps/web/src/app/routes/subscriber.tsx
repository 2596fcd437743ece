import { useParams } from 'react-router';
import { ComingSoon } from '../../components/coming-soon.tsx';

/**
 * Subscriber detail (part 2 §2.2; `new` or `0` is a new record). Not built yet: heading and a
 * one-line notice.
 */
export function SubscriberRoute() {
  const { id } = useParams();
  const isNew = id === 'new' || id === '0';
  return <ComingSoon title={isNew ? 'New Subscriber' : 'Subscriber'} />;
}
