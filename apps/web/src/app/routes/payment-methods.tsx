import { ComingSoon } from '../../components/coming-soon.tsx';

/** Payment methods list (part 1 §2 Reference-data lists). Not built yet: heading and a one-line notice. */
export function PaymentMethodsRoute() {
  return <ComingSoon title="Payment Methods" />;
}
