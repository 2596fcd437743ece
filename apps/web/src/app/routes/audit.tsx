import { AuditScreen } from '../../features/audit/components/audit-screen.tsx';

/** Audit (issue 8 §8, not in the spec), Administrators only: the trail of changes to users, roles, products, reference lists and settings. */
export function AuditRoute() {
  return <AuditScreen />;
}
