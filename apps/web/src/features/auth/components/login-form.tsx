import { type LoginInput, loginInputSchema } from '@back-office/contract/auth';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { PasswordField } from '../../../components/password-field.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator } from '../../../lib/form.ts';
import { cancelMeasure, startMeasure } from '../../../lib/perf-marks.ts';
import { useLogin } from '../api/login.ts';

export const LOGIN_FAILED_MESSAGE = 'Ooops! Try a different username or password and login again.';
export const LOGIN_RATE_LIMITED_MESSAGE =
  'Too many login attempts. Please wait a few minutes, then try again.';

type LoginFormProps = {
  onSuccess: () => void;
};

/**
 * The login form (part 1 §2 Login, §5 Login rules, §8 "Login failure"): Email, Password, the
 * Forgotten password? link and Log In. A refused login shows the spec's alert; a rate-limited one
 * (429) says to wait.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const login = useLogin();
  const [failure, setFailure] = useState<'credentials' | 'rate-limited' | null>(null);
  const form = useForm<LoginInput>({
    initialValues: { email: '', password: '' },
    validate: schemaValidator(loginInputSchema),
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setFailure(null);
    // Speed figure: Log In click -> dashboard drawn (ended by the dashboard).
    startMeasure('login-to-dashboard');
    try {
      await login.mutateAsync(loginInputSchema.parse(values));
      onSuccess();
    } catch (error) {
      cancelMeasure('login-to-dashboard');
      setFailure(error instanceof ApiError && error.status === 429 ? 'rate-limited' : 'credentials');
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        {failure === 'credentials' ? (
          <Alert color="red" variant="light">
            {LOGIN_FAILED_MESSAGE}
          </Alert>
        ) : null}
        {failure === 'rate-limited' ? (
          <Alert color="orange" variant="light">
            {LOGIN_RATE_LIMITED_MESSAGE}
          </Alert>
        ) : null}
        <TextInput label="Email" type="email" autoComplete="username" {...form.getInputProps('email')} />
        <PasswordField label="Password" autoComplete="current-password" {...form.getInputProps('password')} />
        <Anchor component={Link} to={paths.passwordReset.href()} size="sm">
          Forgotten password?
        </Anchor>
        <Button type="submit" loading={login.isPending}>
          Log In
        </Button>
      </Stack>
    </form>
  );
}
