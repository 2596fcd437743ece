import { ImportsScreen } from '../../features/imports/components/imports-screen.tsx';

/** Imports (not in the spec), Administrators only: subscribers from a CSV or XLSX file, and past imports. */
export function ImportsRoute() {
  return <ImportsScreen />;
}
