import { ReferenceListScreen } from '../../features/reference-lists/components/reference-list-screen.tsx';
import { tagsList } from '../../features/reference-lists/reference-list-configs.ts';

/** /tags: the Tags list (part 1 §2 Reference-data lists). */
export function TagsRoute() {
  return <ReferenceListScreen list={tagsList} />;
}
