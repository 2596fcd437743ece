import { type ChangePasswordInput, changePasswordInputSchema } from '@back-office/contract/users';
import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { PasswordField } from '../../../components/password-field.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { problemMessage } from '../../../lib/notify.ts';
import { useConfirmPasswordReset } from '../api/confirm-password-reset.ts';

export const SET_PASSWORD_SUCCESS_MESSAGE = 'Your password has been saved. You can now log in with it.';
export const SET_PASSWORD_BAD_LINK_MESSAGE =
  'This link is not valid any more: it may have been used already or have expired. Please ask for a new one.';

type SetPasswordFormProps = {
  /** The single-use token of the emailed link (`?token=`), or null when the link carries none. */
  token: string | null;
};

type Outcome = 'saved' | 'bad-link' | 'failed' | null;

/**
 * Sets a new password from an emailed link (part 1 §2 Password reset, §7 Identity provider; also a new
 * account's first password): New Password and Confirm Password with the change-password rules
 * (part 1 §5), `POST /auth/password-reset/confirm`; a bad, used or expired link says so and links
 * back to Reset Password; success links to the login screen.
 */
export function SetPasswordForm({ token }: SetPasswordFormProps) {
  const confirmReset = useConfirmPasswordReset();
  const [outcome, setOutcome] = useState<Outcome>(token ? null : 'bad-link');
  const blurGuard = useBlurValidationGuard();
  const form = useForm<ChangePasswordInput>({
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: schemaValidator(changePasswordInputSchema),
    validateInputOnBlur: ['confirmPassword'],
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const serverError = useServerErrorBanner();
  const handleSubmit = form.onSubmit(async (values) => {
    if (!token) return;
    setOutcome(null);
    serverError.clear();
    try {
      await confirmReset.mutateAsync({ token, newPassword: values.newPassword });
      form.reset();
      setOutcome('saved');
    } catch (error) {
      if (!serverError.show(error, form.setFieldError)) {
        setOutcome(error instanceof ApiError && error.status === 400 ? 'bad-link' : 'failed');
      }
    }
  });

  if (outcome === 'saved') {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light">
          {SET_PASSWORD_SUCCESS_MESSAGE}
        </Alert>
        <Anchor component={Link} to={paths.login.href()}>
          Go to the login screen
        </Anchor>
      </Stack>
    );
  }

  if (outcome === 'bad-link') {
    return (
      <Stack gap="md">
        <Alert color="red" variant="light">
          {SET_PASSWORD_BAD_LINK_MESSAGE}
        </Alert>
        <Anchor component={Link} to={paths.passwordReset.href()}>
          Reset Password
        </Anchor>
      </Stack>
    );
  }

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        {outcome === 'failed' ? (
          <Alert color="red" variant="light">
            {problemMessage('saving your password')}
          </Alert>
        ) : null}
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          {...form.getInputProps('newPassword')}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          {...form.getInputProps('confirmPassword')}
        />
        {serverError.banner}
        <Button type="submit" loading={confirmReset.isPending}>
          Save Password
        </Button>
        <Anchor component={Link} to={paths.login.href()} size="sm">
          Return to login screen
        </Anchor>
      </Stack>
    </form>
  );
}
