import { Navigate, useParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { SubscriberScreen } from '../../features/subscribers/components/subscriber-screen.tsx';

/** `subscriber/new` or `0` is a new record; otherwise a positive id. */
function parseSubscriberId(raw: string | undefined): number | 'new' | null {
  if (raw === 'new' || raw === '0') return 'new';
  if (!raw || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/** /subscriber/{id} and /subscriber/new: the subscriber screen (part 2 §2, §2.2). */
export function SubscriberRoute() {
  const id = parseSubscriberId(useParams().id);
  if (id === null) return <Navigate to={paths.subscribers.href()} replace />;
  // A new key per subscriber: after creating one, its own page starts afresh.
  return <SubscriberScreen key={String(id)} id={id} />;
}
