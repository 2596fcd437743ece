import { useSearchParams } from 'react-router';
import { FormPage } from '../../components/form-page.tsx';
import { SetPasswordForm } from '../../features/auth/components/set-password-form.tsx';

/**
 * /password-reset/confirm?token=..., open: the emailed link's screen to choose a password, for a
 * reset and for a new account's first password (part 1 §2 Password reset, §7 Identity provider).
 */
export function PasswordResetConfirmRoute() {
  const [searchParams] = useSearchParams();
  return (
    <FormPage title="Set Your Password">
      <SetPasswordForm token={searchParams.get('token')} />
    </FormPage>
  );
}
