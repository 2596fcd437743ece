import { DuplicatesScreen } from '../../features/duplicates/components/duplicates-screen.tsx';

/** Duplicates (not in the spec), Administrators only: the scan of the register and its likely duplicates. */
export function DuplicatesRoute() {
  return <DuplicatesScreen />;
}
