import { type ChangePasswordInput, changePasswordInputSchema } from '@back-office/contract/users';
import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PasswordField } from '../../../components/password-field.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useChangePassword } from '../api/change-password.ts';

export const PASSWORD_UPDATED_MESSAGE = 'Your password was updated successfully. Good job!';

/**
 * Change password of the signed-in user (part 1 §2 Change password, §4 "the form resets after a
 * valid submission", §5 messages, §8 messages). A 400 naming a field (e.g. the password is too
 * short for the server) shows that message under the field.
 */
export function ChangePasswordForm({ userId }: { userId: number }) {
  const changePassword = useChangePassword();
  const blurGuard = useBlurValidationGuard();
  const form = useForm<ChangePasswordInput>({
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: schemaValidator(changePasswordInputSchema),
    validateInputOnBlur: ['confirmPassword'],
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await changePassword.mutateAsync({ userId, ...values });
      form.reset();
      notifySuccess(PASSWORD_UPDATED_MESSAGE);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const newPasswordMessage = error.fieldMessage('newPassword');
        const confirmPasswordMessage = error.fieldMessage('confirmPassword');
        if (newPasswordMessage) form.setFieldError('newPassword', newPasswordMessage);
        if (confirmPasswordMessage) form.setFieldError('confirmPassword', confirmPasswordMessage);
        if (newPasswordMessage || confirmPasswordMessage) return;
      }
      notifyError('updating your password');
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md" maw={420}>
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
        <Button type="submit" loading={changePassword.isPending} style={{ alignSelf: 'flex-start' }}>
          Update Password
        </Button>
      </Stack>
    </form>
  );
}
