import { ComingSoon } from '../../components/coming-soon.tsx';

/** Donations (part 2 §2.4). Not built yet: heading and a one-line notice. */
export function DonationsRoute() {
  return <ComingSoon title="Donations" />;
}
