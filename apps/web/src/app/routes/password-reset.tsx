import { FormPage } from '../../components/form-page.tsx';
import { PasswordResetForm } from '../../features/auth/components/password-reset-form.tsx';

/** /password-reset, open (part 1 §2 Password reset). */
export function PasswordResetRoute() {
  return (
    <FormPage title="Reset Password">
      <PasswordResetForm />
    </FormPage>
  );
}
