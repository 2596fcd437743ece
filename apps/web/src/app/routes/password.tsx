import { PageHeader } from '../../components/page-header.tsx';
import { useCurrentUser } from '../../entities/current-user/index.ts';
import { ChangePasswordForm } from '../../features/users/components/change-password-form.tsx';

/** /password (part 1 §2 Change password), for the signed-in user. */
export function PasswordRoute() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <>
      <PageHeader title="Change Your Password" />
      <ChangePasswordForm userId={user.id} />
    </>
  );
}
