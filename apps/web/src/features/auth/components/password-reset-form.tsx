import { type PasswordResetRequest, passwordResetRequestSchema } from '@back-office/contract/auth';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { schemaValidator } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';

export const PASSWORD_RESET_SENT_MESSAGE = 'Please check your email for a password reset link!';

/**
 * The password reset request (part 1 §2 Password reset, §4 "after a valid submit the form clears and
 * a success message shows", §5 reset email rule, §8 messages).
 */
export function PasswordResetForm() {
  const requestReset = useRequestPasswordReset();
  const form = useForm<PasswordResetRequest>({
    initialValues: { email: '' },
    validate: schemaValidator(passwordResetRequestSchema),
  });

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await requestReset.mutateAsync(passwordResetRequestSchema.parse(values));
      form.reset();
      notifySuccess(PASSWORD_RESET_SENT_MESSAGE);
    } catch {
      notifyError();
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps('email')} />
        <Button type="submit" loading={requestReset.isPending}>
          Send Password Reset Email
        </Button>
        <Anchor component={Link} to={paths.login.href()} size="sm">
          Return to login screen
        </Anchor>
      </Stack>
    </form>
  );
}
