import { ReferenceListScreen } from '../../features/reference-lists/components/reference-list-screen.tsx';
import { categoriesList } from '../../features/reference-lists/reference-list-configs.ts';

/** /categories: the Categories list (part 1 §2 Reference-data lists). */
export function CategoriesRoute() {
  return <ReferenceListScreen list={categoriesList} />;
}
