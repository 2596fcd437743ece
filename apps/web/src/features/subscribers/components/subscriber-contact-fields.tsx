import { SimpleGrid, Switch, TextInput } from '@mantine/core';
import { DateField } from '../../../components/date-field.tsx';
import { organisationToday } from '../../../lib/calendar.ts';
import type { SubscriberForm } from '../subscriber-form-values.ts';

type Props = { form: SubscriberForm };

/**
 * Panel 3, Contact Details (part 2 §2.2): phone, mobile, fax, email, and whether the subscriber is on
 * the newsletter mailing list (yes/no) with the newsletter's email address; when and how the subscriber
 * agreed to receive emails (GDPR art. 7), the day in French `dd/mm/yyyy`, no later than today.
 */
export function SubscriberContactFields({ form }: Props) {
  const onList = form.values.onMailChimpList;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="sm">
      <TextInput label="Phone" type="tel" {...form.getInputProps('phone')} />
      <TextInput label="Mobile" type="tel" {...form.getInputProps('mobile')} />
      <TextInput label="Fax" type="tel" {...form.getInputProps('fax')} />
      <TextInput label="Email" type="email" {...form.getInputProps('email')} />
      <Switch
        mt={{ sm: 'xl' }}
        label="On mailing list?"
        description={onList ? 'Yes' : 'No'}
        {...form.getInputProps('onMailChimpList', { type: 'checkbox' })}
      />
      <TextInput label="Newsletter Email" type="email" {...form.getInputProps('newsletterEmail')} />
      <DateField
        label="Email Consent Date"
        maxDate={organisationToday()}
        value={form.values.emailConsentDate}
        onChange={(value) => form.setFieldValue('emailConsentDate', value)}
        error={form.errors.emailConsentDate}
      />
      <TextInput
        label="Email Consent Source"
        placeholder="Formulaire web, Bulletin papier…"
        {...form.getInputProps('emailConsentSource')}
      />
    </SimpleGrid>
  );
}
