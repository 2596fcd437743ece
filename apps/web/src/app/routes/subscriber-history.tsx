import { Navigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { SubscriberHistory } from '../../features/subscribers/components/subscriber-history.tsx';

/** /subscriber/{id}/history, optional params fn and ln (part 2 §2, §2.3). */
export function SubscriberHistoryRoute() {
  const { id } = useParams();
  const [search] = useSearchParams();
  if (!id || !/^[1-9]\d*$/.test(id)) return <Navigate to={paths.subscribers.href()} replace />;
  const fn = search.get('fn') ?? '';
  const ln = search.get('ln') ?? '';
  const name = `${fn} ${ln}`.trim();
  return <SubscriberHistory key={id} id={Number(id)} name={name || undefined} />;
}
