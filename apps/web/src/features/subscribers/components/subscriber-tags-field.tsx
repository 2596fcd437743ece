import { MultiSelect } from '@mantine/core';
import type { SubscriberForm, SubscriberLookups } from '../subscriber-form-values.ts';

type Props = { form: SubscriberForm; lookups: SubscriberLookups };

/**
 * Panel 7, Custom Tags (part 2 §2.2): a tag input with autocomplete from the existing tags
 * (placeholder "Add new tag here.."). Free text is not accepted: only an existing tag can be added.
 * Tags the subscriber already has are kept in the choices even if renamed since.
 */
export function SubscriberTagsField({ form, lookups }: Props) {
  const names = lookups.tags.map((tag) => tag.name);
  const data = [...new Set([...names, ...form.values.tags])];
  return (
    <MultiSelect
      label="Tags"
      placeholder="Add new tag here.."
      data={data}
      searchable
      clearable
      hidePickedOptions
      nothingFoundMessage="No tag of that name exists"
      comboboxProps={{ withinPortal: true, position: 'top' }}
      {...form.getInputProps('tags')}
    />
  );
}
