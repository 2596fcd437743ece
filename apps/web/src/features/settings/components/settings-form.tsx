import { type Settings, settingsSchema } from '@back-office/contract/settings';
import { Button, Center, Group, Loader, Paper, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useEffect } from 'react';
import { schemaValidator, showServerFieldErrors, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSettings } from '../api/get-settings.ts';
import { useSaveSettings } from '../api/save-settings.ts';
import { SettingsDocumentFields } from './settings-document-fields.tsx';
import { SettingsEmailFields } from './settings-email-fields.tsx';
import { SettingsOrganisationFields } from './settings-organisation-fields.tsx';

/** The success toast of a saved settings form. */
export const SETTINGS_SAVED_MESSAGE = 'Settings were saved successfully!';

const FIELDS = Object.keys(settingsSchema.shape) as Array<keyof Settings>;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section">
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/**
 * The organisation settings screen's form (an addition to the spec: the organisation identity
 * used on receipts, invoices, mandate letters and emails). Loads the settings, saves every field with
 * a busy Save button, and shows the server's field errors under their fields.
 */
export function SettingsForm() {
  const settings = useSettings();

  useEffect(() => {
    if (settings.isError) notifyError('getting the settings');
  }, [settings.isError]);

  if (settings.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading settings" />
      </Center>
    );
  }
  if (settings.isError) return null;
  return <LoadedSettingsForm initial={settings.data} />;
}

function LoadedSettingsForm({ initial }: { initial: Settings }) {
  const saveSettings = useSaveSettings();
  const blurGuard = useBlurValidationGuard();
  const form = useForm<Settings>({
    initialValues: initial,
    validate: schemaValidator(settingsSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const showFieldErrors = (error: unknown) =>
    showServerFieldErrors(error, FIELDS, (field, message) => form.setFieldError(field, message));

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      const saved = await saveSettings.mutateAsync(settingsSchema.parse(values));
      form.setValues(saved);
      form.resetDirty(saved);
      notifySuccess(SETTINGS_SAVED_MESSAGE);
    } catch (error) {
      if (!showFieldErrors(error)) notifyError('saving the settings');
    }
  });

  return (
    <form onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="lg">
        <Section title="Organisation">
          <SettingsOrganisationFields form={form} />
        </Section>
        <Section title="Emails">
          <SettingsEmailFields form={form} />
        </Section>
        <Section title="Receipts and invoices">
          <SettingsDocumentFields form={form} />
        </Section>
        <Group justify="flex-end">
          <Button type="submit" loading={saveSettings.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
