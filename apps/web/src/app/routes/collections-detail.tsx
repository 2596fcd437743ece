import { Navigate, useParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { CollectionDetailScreen } from '../../features/collections/components/collection-detail-screen.tsx';

/**
 * /collections/{id} (not in the spec; docs/decisions/029), Administrators only: one collection, its
 * lines, file and settlement. An id that is not a positive number goes back to the Collections screen.
 */
export function CollectionDetailRoute() {
  const raw = useParams().id;
  if (!raw || !/^[1-9]\d*$/.test(raw)) return <Navigate to={paths.collections.href()} replace />;
  // A new key per collection: moving from one to another starts afresh.
  return <CollectionDetailScreen key={raw} id={Number(raw)} />;
}
