import { ComingSoon } from '../../components/coming-soon.tsx';

/** Organisation settings used on documents and emails (DESIGN.md domains; Administrators). Not built yet: heading and a one-line notice. */
export function SettingsRoute() {
  return <ComingSoon title="Settings" />;
}
