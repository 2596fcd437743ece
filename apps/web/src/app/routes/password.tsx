import { PageHeader } from '../../components/page-header.tsx';
import { ChangePasswordForm } from '../../features/users/components/change-password-form.tsx';
import { useSessionUser } from '../../lib/session.ts';

/** /password (part 1 §2 Change password), for the signed-in user. */
export function PasswordRoute() {
  const user = useSessionUser();
  if (!user) return null;
  return (
    <>
      <PageHeader title="Change Your Password" />
      <ChangePasswordForm userId={user.id} />
    </>
  );
}
