import { AnnualReceiptsScreen } from '../../features/donations/components/annual-receipts-screen.tsx';

/** Annual Receipts (issue 5 §5, not in the spec), Administrators only: the yearly receipt run. */
export function AnnualReceiptsRoute() {
  return <AnnualReceiptsScreen />;
}
