import { AnnualReceiptsScreen } from '../../features/donations/components/annual-receipts-screen.tsx';

/** Annual Receipts (an addition to the spec), Administrators only: the yearly receipt run. */
export function AnnualReceiptsRoute() {
  return <AnnualReceiptsScreen />;
}
