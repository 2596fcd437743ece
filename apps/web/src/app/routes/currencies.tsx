import { ReferenceListScreen } from '../../features/reference-lists/components/reference-list-screen.tsx';
import { currenciesList } from '../../features/reference-lists/reference-list-configs.ts';

/** /currencies: the Currencies list (part 1 §2 Reference-data lists). */
export function CurrenciesRoute() {
  return <ReferenceListScreen list={currenciesList} />;
}
