import { ComingSoon } from '../../components/coming-soon.tsx';

/** Currencies list (part 1 §2 Reference-data lists). Not built yet: heading and a one-line notice. */
export function CurrenciesRoute() {
  return <ComingSoon title="Currencies" />;
}
