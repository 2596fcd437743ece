import { ComingSoon } from '../../components/coming-soon.tsx';

/** Tags list (part 1 §2 Reference-data lists). Not built yet: heading and a one-line notice. */
export function TagsRoute() {
  return <ComingSoon title="Tags" />;
}
