import { EMAIL_TEMPLATE_FIELDS } from '@back-office/contract/email-templates';
import { DOCUMENT_RETENTION_YEARS, INACTIVITY_REPORT_YEARS } from '@back-office/contract/personal-data';
import {
  DEFAULT_ORGANISATION_TYPE,
  DEFAULT_RECEIPT_FOR_OTHER_COUNTRIES,
  SEPA_PRE_NOTIFICATION_DAYS,
  type Settings,
  settingsSchema,
} from '@back-office/contract/settings';
import { Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { type ReactNode, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSettings } from '../api/get-settings.ts';
import { useSaveSettings } from '../api/save-settings.ts';
import { SettingsDirectDebitFields } from './settings-direct-debit-fields.tsx';
import { SettingsDocumentFields } from './settings-document-fields.tsx';
import { SettingsEmailFields } from './settings-email-fields.tsx';
import { SettingsInvoicePaymentFields } from './settings-invoice-payment-fields.tsx';
import { SettingsOrganisationFields } from './settings-organisation-fields.tsx';
import { SettingsReceiptFields } from './settings-receipt-fields.tsx';
import { SettingsTemplateFields, withTemplateDefaults } from './settings-template-fields.tsx';

/** The success toast of a saved settings form. */
export const SETTINGS_SAVED_MESSAGE = 'Settings were saved successfully!';

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
 * The email templates, shown on demand (and whenever one of them is refused, so its error is seen):
 * seven long texts re-rendered on every keystroke elsewhere in the form would slow it down.
 */
function EmailTemplatesToggle({
  form,
  opened,
  onOpen,
}: {
  form: UseFormReturnType<Settings>;
  opened: boolean;
  onOpen: () => void;
}) {
  const refused = EMAIL_TEMPLATE_FIELDS.some((field) => form.errors[field]);
  if (opened || refused) return <SettingsTemplateFields form={form} />;
  return (
    <Group justify="space-between">
      <Text size="sm">
        The subject and text of the receipt, annual receipt and returned-brochure emails, and the footer of
        group emails; in French by default.
      </Text>
      <Button variant="light" onClick={onOpen}>
        Edit email templates
      </Button>
    </Group>
  );
}

/**
 * The organisation settings screen's form (an addition to the spec: the organisation identity
 * used on receipts, invoices, mandate letters and emails, and the templates of the emails to
 * subscribers). Loads the settings, saves every field with
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
  return <LoadedSettingsForm initial={withTemplateDefaults(settings.data)} />;
}

function LoadedSettingsForm({ initial }: { initial: Settings }) {
  const saveSettings = useSaveSettings();
  const blurGuard = useBlurValidationGuard();
  const form = useForm<Settings>({
    initialValues: {
      ...initial,
      documentRetentionYears: initial.documentRetentionYears ?? DOCUMENT_RETENTION_YEARS.default,
      inactivityReportYears: initial.inactivityReportYears ?? INACTIVITY_REPORT_YEARS.default,
      receiptForOtherCountries: initial.receiptForOtherCountries ?? DEFAULT_RECEIPT_FOR_OTHER_COUNTRIES,
      addressStreet: initial.addressStreet ?? '',
      addressBuildingNumber: initial.addressBuildingNumber ?? '',
      addressPostcode: initial.addressPostcode ?? '',
      addressTown: initial.addressTown ?? '',
      addressCountry: initial.addressCountry ?? null,
      signatureImage: initial.signatureImage ?? null,
      organisationType: initial.organisationType ?? DEFAULT_ORGANISATION_TYPE,
      organisationTypeDetail: initial.organisationTypeDetail ?? '',
      sepaPreNotificationDays: initial.sepaPreNotificationDays ?? SEPA_PRE_NOTIFICATION_DAYS.default,
      sepaFirstAsRecurring: initial.sepaFirstAsRecurring ?? false,
      sepaCreditorIban: initial.sepaCreditorIban ?? '',
      sepaCreditorBic: initial.sepaCreditorBic ?? '',
      bankAccounts: initial.bankAccounts ?? [],
      epcQrCode: initial.epcQrCode ?? false,
    },
    validate: schemaValidator(settingsSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });

  const serverError = useServerErrorBanner();
  const [templatesOpened, setTemplatesOpened] = useState(false);
  /** Opens the templates before the banner looks for a refused one among the fields. */
  const openRefusedTemplates = (error: unknown) => {
    const refused = (path: string) => (EMAIL_TEMPLATE_FIELDS as readonly string[]).includes(path);
    if (error instanceof ApiError && error.errors.some(({ path }) => refused(path))) {
      flushSync(() => setTemplatesOpened(true));
    }
  };
  const handleSubmit = form.onSubmit(async (values) => {
    serverError.clear();
    try {
      const saved = withTemplateDefaults(await saveSettings.mutateAsync(settingsSchema.parse(values)));
      form.setValues(saved);
      form.resetDirty(saved);
      notifySuccess(SETTINGS_SAVED_MESSAGE);
    } catch (error) {
      openRefusedTemplates(error);
      if (!serverError.show(error, form.setFieldError)) notifyError('saving the settings');
    }
  });

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
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
        <Section title="Tax receipts">
          <SettingsReceiptFields form={form} />
        </Section>
        <Section title="Direct debit">
          <SettingsDirectDebitFields form={form} />
        </Section>
        <Section title="Invoice payments">
          <SettingsInvoicePaymentFields form={form} />
        </Section>
        <Section title="Email templates">
          <EmailTemplatesToggle
            form={form}
            opened={templatesOpened}
            onOpen={() => setTemplatesOpened(true)}
          />
        </Section>
        {serverError.banner}
        <Group justify="flex-end">
          <Button type="submit" loading={saveSettings.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
