import { useNavigate } from 'react-router';
import { FormPage } from '../../components/form-page.tsx';
import { paths } from '../../config/paths.ts';
import { LoginForm } from '../../features/auth/components/login-form.tsx';

/** /login (part 1 §2 Login): after a successful login the app goes to /home. */
export function LoginRoute() {
  const navigate = useNavigate();
  return (
    <FormPage title="Login">
      <LoginForm onSuccess={() => void navigate(paths.home.href(), { replace: true })} />
    </FormPage>
  );
}
