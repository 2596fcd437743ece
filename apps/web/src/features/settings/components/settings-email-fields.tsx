import type { Settings } from '@back-office/contract/settings';
import { SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** Who the emails sent to subscribers come from: sender name and address. */
export function SettingsEmailFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput label="Email sender name" autoComplete="off" {...form.getInputProps('emailSenderName')} />
      <TextInput
        label="Email sender address"
        type="email"
        autoComplete="off"
        {...form.getInputProps('emailSenderAddress')}
      />
    </SimpleGrid>
  );
}
