import { JobsScreen } from '../../features/jobs/components/jobs-screen.tsx';

/** Jobs (docs/decisions/013, not in the spec), Administrators only: the background work and its progress. */
export function JobsRoute() {
  return <JobsScreen />;
}
