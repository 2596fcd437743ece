import { useParams } from 'react-router';
import { NewSaleScreen } from '../../features/sales/components/new-sale-screen.tsx';

/** newsale/{subscriberId} (part 2 §2 routes, §2.6): the New Sale screen for that subscriber. */
export function NewSaleRoute() {
  const { id } = useParams();
  const subscriberId = Number(id);
  return <NewSaleScreen key={subscriberId} subscriberId={subscriberId} />;
}
