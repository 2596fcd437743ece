import { ComingSoon } from '../../components/coming-soon.tsx';

/** Countries list (part 1 §2 Reference-data lists). Not built yet: heading and a one-line notice. */
export function CountriesRoute() {
  return <ComingSoon title="Countries" />;
}
