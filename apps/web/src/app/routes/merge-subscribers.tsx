import { MergeScreen } from '../../features/duplicates/components/merge-screen.tsx';

/** The merge of two subscribers (not in the spec), Administrators only, at `?keep=<id>&merge=<id>`. */
export function MergeSubscribersRoute() {
  return <MergeScreen />;
}
