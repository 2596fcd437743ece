import { createUserInputSchema, ROLES, type Role, type User } from '@back-office/contract/users';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateUser } from '../api/create-user.ts';
import { useUpdateUser } from '../api/update-user.ts';

const EMAIL_TAKEN_MESSAGE = 'This email is already used by another user.';
const LAST_ADMINISTRATOR_MESSAGE = 'The last Administrator must keep the Administrator role.';

type UserFormValues = {
  fullName: string;
  email: string;
  role: Role | null;
};

type UserFormModalProps = {
  opened: boolean;
  /** The user being edited, or null to add a new one. */
  user: User | null;
  onClose: () => void;
};

/**
 * The Add New User / Edit User dialog (part 1 §2 Users, §4 Modal, §5 User form, §8 messages).
 * Static backdrop. Unlike the legacy client, it stays open with a busy Save button until
 * the server answers, and stays open showing the error when the server refuses: field errors of the
 * problem under their fields, a taken email under Email, demoting the last Administrator under Role.
 */
export function UserFormModal({ opened, user, onClose }: UserFormModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title={user ? 'Edit User' : 'Add New User'} busy={busy} onClose={onClose}>
      <UserForm key={user?.id ?? 'new'} user={user} onDone={onClose} onBusyChange={setBusy} />
    </FormModal>
  );
}

type UserFormProps = {
  user: User | null;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
};

function UserForm({ user, onDone, onBusyChange }: UserFormProps) {
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<UserFormValues>({
    initialValues: {
      fullName: user?.fullName ?? '',
      email: user?.email ?? '',
      role: user?.role ?? null,
    },
    validate: schemaValidator(createUserInputSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const pending = createUser.isPending || updateUser.isPending;

  const serverError = useServerErrorBanner();
  const showServerRefusal = (error: unknown): boolean => {
    if (serverError.show(error, form.setFieldError)) return true;
    if (!(error instanceof ApiError)) return false;
    if (error.code === 'users.email_taken') {
      return serverError.showFields(
        [{ path: 'email', message: error.detail ?? EMAIL_TAKEN_MESSAGE }],
        form.setFieldError,
      );
    }
    if (error.code === 'users.last_administrator') {
      return serverError.showFields(
        [{ path: 'role', message: LAST_ADMINISTRATOR_MESSAGE }],
        form.setFieldError,
      );
    }
    return false;
  };

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      const input = createUserInputSchema.parse(values);
      onBusyChange(true);
      try {
        if (user) {
          const saved = await updateUser.mutateAsync({ id: user.id, ...input });
          notifySuccess(`User '${saved.fullName}' was updated successfully!`);
        } else {
          const saved = await createUser.mutateAsync(input);
          notifySuccess(`User '${saved.fullName}' was created successfully!`);
        }
        onBusyChange(false);
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (!showServerRefusal(error)) notifyError(user ? 'updating a user' : 'creating a user');
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <TextInput label="Full name" autoComplete="off" data-autofocus {...form.getInputProps('fullName')} />
        <TextInput label="Email" type="email" autoComplete="off" {...form.getInputProps('email')} />
        <Select
          label="Role"
          placeholder="Select the user's role."
          data={[...ROLES]}
          allowDeselect={false}
          {...form.getInputProps('role')}
        />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
