import { Input, SegmentedControl, SimpleGrid, TextInput } from '@mantine/core';
import type { SubscriberForm } from '../subscriber-form-values.ts';

type Props = { form: SubscriberForm };

/**
 * Panel 6, Mailing List Status (part 2 §2.2, §4): "Still on mailing list?" Yes (inactive false) or No
 * (inactive true), and the Reason for removal (inactiveReason) of an inactive subscriber.
 */
export function SubscriberMailingStatusFields({ form }: Props) {
  const inactive = form.values.inactive;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      <Input.Wrapper label="Still on mailing list?" id="subscriber-still-on-list">
        <div>
          <SegmentedControl
            aria-labelledby="subscriber-still-on-list-label"
            data={[
              { value: 'yes', label: 'Yes' },
              { value: 'no', label: 'No' },
            ]}
            value={inactive ? 'no' : 'yes'}
            onChange={(value) => form.setFieldValue('inactive', value === 'no')}
          />
        </div>
      </Input.Wrapper>
      <TextInput label="Reason for removal" disabled={!inactive} {...form.getInputProps('inactiveReason')} />
    </SimpleGrid>
  );
}
