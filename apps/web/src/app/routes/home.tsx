import { Dashboard } from '../../features/dashboard/components/dashboard.tsx';

/** The home screen, /home (part 1 §2 Dashboard). */
export function HomeRoute() {
  return <Dashboard />;
}
