import { ReferenceListScreen } from '../../features/reference-lists/components/reference-list-screen.tsx';
import { countriesList } from '../../features/reference-lists/reference-list-configs.ts';

/** /countries: the Countries list (part 1 §2 Reference-data lists). */
export function CountriesRoute() {
  return <ReferenceListScreen list={countriesList} />;
}
