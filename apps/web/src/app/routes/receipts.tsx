import { ReceiptsScreen } from '../../features/receipts/components/receipts-screen.tsx';

/** Receipts (not in the spec; docs/decisions/023), every signed-in user: the register of tax receipts; its changes, Administrators only. */
export function ReceiptsRoute() {
  return <ReceiptsScreen />;
}
