import { BankStatementsScreen } from '../../features/bank-statements/components/bank-statements-screen.tsx';

/** Bank statements (not in the spec; docs/decisions/033), Administrators only: statement imports matched to invoices, and the review queue. */
export function BankStatementsRoute() {
  return <BankStatementsScreen />;
}
