import { ReferenceListScreen } from '../../features/reference-lists/components/reference-list-screen.tsx';
import { paymentMethodsList } from '../../features/reference-lists/reference-list-configs.ts';

/** /payment-methods: the Payment Methods list (part 1 §2 Reference-data lists). */
export function PaymentMethodsRoute() {
  return <ReferenceListScreen list={paymentMethodsList} />;
}
