import { Container } from '@mantine/core';
import { PageHeader } from '../../components/page-header.tsx';
import { SettingsForm } from '../../features/settings/components/settings-form.tsx';

/** /settings, Administrators only: the organisation settings used on documents and emails. */
export function SettingsRoute() {
  return (
    <Container size="md" px={0}>
      <PageHeader title="Settings" />
      <SettingsForm />
    </Container>
  );
}
