import { type ChangeOwnPasswordInput, changeOwnPasswordInputSchema } from '@back-office/contract/users';
import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PasswordField } from '../../../components/password-field.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useChangePassword } from '../api/change-password.ts';

export const PASSWORD_UPDATED_MESSAGE = 'Your password was updated successfully. Good job!';

/**
 * Change password of the signed-in user (part 1 §2 Change password, §4 "the form resets after a
 * valid submission", §5 messages, §8 messages), who first gives the current one (docs/decisions/011). A 400 naming a field (e.g. the password is too
 * short for the server) shows that message under the field.
 */
export function ChangePasswordForm({ userId }: { userId: number }) {
  const changePassword = useChangePassword();
  const blurGuard = useBlurValidationGuard();
  const form = useForm<ChangeOwnPasswordInput>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: schemaValidator(changeOwnPasswordInputSchema),
    validateInputOnBlur: ['confirmPassword'],
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const serverError = useServerErrorBanner();
  const handleSubmit = form.onSubmit(async (values) => {
    serverError.clear();
    try {
      await changePassword.mutateAsync({ userId, ...values });
      form.reset();
      notifySuccess(PASSWORD_UPDATED_MESSAGE);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && serverError.show(error, form.setFieldError))
        return;
      notifyError('updating your password');
    }
  });

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md" maw={420}>
        <PasswordField
          label="Current Password"
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
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
        <Button type="submit" loading={changePassword.isPending} style={{ alignSelf: 'flex-start' }}>
          Update Password
        </Button>
      </Stack>
    </form>
  );
}
