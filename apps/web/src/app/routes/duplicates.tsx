import { DuplicatesScreen } from '../../features/duplicates/components/duplicates-screen.tsx';
import { InactiveSubscribersSection } from '../../features/duplicates/components/inactive-subscribers-section.tsx';

/**
 * Duplicates (not in the spec), Administrators only: the scan of the register and its likely duplicates,
 * then the subscribers inactive for the retention report's period.
 */
export function DuplicatesRoute() {
  return (
    <>
      <DuplicatesScreen />
      <InactiveSubscribersSection />
    </>
  );
}
