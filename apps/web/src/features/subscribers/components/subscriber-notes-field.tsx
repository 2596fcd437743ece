import { Textarea } from '@mantine/core';
import type { SubscriberForm } from '../subscriber-form-values.ts';

type Props = { form: SubscriberForm };

/** Panel 8, General Notes (part 2 §2.2): multi-line, Shift+Enter for a new line (Enter never submits). */
export function SubscriberNotesField({ form }: Props) {
  return (
    <Textarea
      label="Notes"
      description="Shift+Enter starts a new line."
      autosize
      minRows={5}
      maxRows={20}
      {...form.getInputProps('notes')}
    />
  );
}
