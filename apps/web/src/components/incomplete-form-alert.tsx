import { Alert } from '@mantine/core';

/** The text shown after submitting an invalid form (part 1 §2 Users, Products; §5 Lookup dialogs). */
export const INCOMPLETE_FORM_MESSAGE = 'Please complete all the information!';

/** "Please complete all the information!" under a form whose submit found it invalid (part 1 §5). */
export function IncompleteFormAlert({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <Alert color="red" variant="light">
      {INCOMPLETE_FORM_MESSAGE}
    </Alert>
  );
}
