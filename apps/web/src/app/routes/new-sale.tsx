import { ComingSoon } from '../../components/coming-soon.tsx';

/** New sale (part 2 §2.6). Not built yet: heading and a one-line notice. */
export function NewSaleRoute() {
  return <ComingSoon title="New Sale" />;
}
