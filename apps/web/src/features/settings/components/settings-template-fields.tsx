import {
  DEFAULT_EMAIL_TEMPLATES,
  EMAIL_TEMPLATE_FIELDS,
  EMAIL_TEMPLATE_PLACEHOLDERS,
  type EmailTemplateField,
} from '@back-office/contract/email-templates';
import type { Settings } from '@back-office/contract/settings';
import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** The labels of the templates on the settings screen. */
const EMAIL_TEMPLATE_LABELS: Record<EmailTemplateField, string> = {
  receiptEmailSubject: 'Donation receipt email: subject',
  receiptEmailText: 'Donation receipt email: text',
  annualReceiptEmailSubject: 'Annual receipt email: subject',
  annualReceiptEmailText: 'Annual receipt email: text',
  brochureEmailSubject: 'Returned brochure email: subject',
  brochureEmailText: 'Returned brochure email: text',
  bulkEmailFooter: 'Group email footer',
  reminderEmailSubject: 'Payment reminder email: subject',
  reminderEmailText: 'Payment reminder email: text',
};

const isSubject = (field: EmailTemplateField) => field.endsWith('Subject');

/** "Placeholders: {title}, {firstName} …" under a template. */
function placeholdersHint(field: EmailTemplateField): string {
  return `Placeholders: ${EMAIL_TEMPLATE_PLACEHOLDERS[field].map((name) => `{${name}}`).join(', ')}`;
}

/** The settings' template fields filled with the defaults where the answer has none. */
export function withTemplateDefaults(settings: Settings): Settings {
  const filled = { ...settings };
  for (const field of EMAIL_TEMPLATE_FIELDS)
    filled[field] = settings[field] || DEFAULT_EMAIL_TEMPLATES[field];
  return filled;
}

/**
 * The templates of the emails sent to subscribers (receipts, annual receipts, returned brochure, the
 * footer of group emails), French by default. Each lists the placeholders it allows (an unknown one is
 * refused under the field, as the server does) and has a "Restore default" button that puts the
 * default text back (saved with the form).
 */
export function SettingsTemplateFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <Stack gap="lg">
      {EMAIL_TEMPLATE_FIELDS.map((field) => {
        const label = EMAIL_TEMPLATE_LABELS[field];
        const restore = (
          <Group justify="flex-end" mt={4}>
            <Button
              variant="subtle"
              size="compact-sm"
              aria-label={`Restore default: ${label}`}
              disabled={form.getValues()[field] === DEFAULT_EMAIL_TEMPLATES[field]}
              onClick={() => form.setFieldValue(field, DEFAULT_EMAIL_TEMPLATES[field])}
            >
              Restore default
            </Button>
          </Group>
        );
        return (
          <div key={field}>
            {isSubject(field) ? (
              <TextInput
                label={label}
                description={placeholdersHint(field)}
                autoComplete="off"
                {...form.getInputProps(field)}
              />
            ) : (
              <Textarea
                label={label}
                description={placeholdersHint(field)}
                // Fixed rows: an autosized textarea measures itself on every render of the form.
                rows={field === 'bulkEmailFooter' ? 4 : 9}
                resize="vertical"
                {...form.getInputProps(field)}
              />
            )}
            {restore}
          </div>
        );
      })}
    </Stack>
  );
}
