import { ComingSoon } from '../../components/coming-soon.tsx';

/** Categories list (part 1 §2 Reference-data lists). Not built yet: heading and a one-line notice. */
export function CategoriesRoute() {
  return <ComingSoon title="Categories" />;
}
