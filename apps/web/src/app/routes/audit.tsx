import { AuditScreen } from '../../features/audit/components/audit-screen.tsx';

/** Audit (an addition to the spec), Administrators only: the trail of changes to users, roles, products, reference lists and settings. */
export function AuditRoute() {
  return <AuditScreen />;
}
