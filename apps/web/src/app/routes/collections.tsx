import { CollectionsScreen } from '../../features/collections/components/collections-screen.tsx';

/** Collections (not in the spec; docs/decisions/029), Administrators only: SEPA direct debits built per due date, and the bank's returns. */
export function CollectionsRoute() {
  return <CollectionsScreen />;
}
