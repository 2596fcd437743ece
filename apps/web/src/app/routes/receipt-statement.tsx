import { ReceiptStatementScreen } from '../../features/receipts/components/receipt-statement-screen.tsx';

/** The annual statement of tax receipts (CGI art. 222 bis, not in the spec), Administrators only. */
export function ReceiptStatementRoute() {
  return <ReceiptStatementScreen />;
}
