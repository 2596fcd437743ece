import { ComingSoon } from '../../components/coming-soon.tsx';

/** Sales list (part 2 §2.5). Not built yet: heading and a one-line notice. */
export function SalesRoute() {
  return <ComingSoon title="Sales" />;
}
