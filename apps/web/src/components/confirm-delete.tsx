import { Button, Group } from '@mantine/core';
import { useState } from 'react';

type ConfirmDeleteProps = {
  /** Deletes the item; resolves true when the server deleted it. */
  onConfirm: () => Promise<boolean>;
};

/**
 * The two-step delete of every list row (part 1 §2 Users/Products/Reference lists, §4 Row delete):
 * Remove turns into Cancel plus CONFIRM DELETE; Cancel goes back; a failed delete goes back too.
 */
export function ConfirmDelete({ onConfirm }: ConfirmDeleteProps) {
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);

  const handleConfirm = async () => {
    setPending(true);
    const deleted = await onConfirm();
    setPending(false);
    if (!deleted) setConfirming(false);
  };

  if (!confirming) {
    return (
      <Button size="xs" variant="light" color="red" onClick={() => setConfirming(true)}>
        Remove
      </Button>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={() => setConfirming(false)} disabled={pending}>
        Cancel
      </Button>
      <Button size="xs" color="red" onClick={handleConfirm} loading={pending}>
        CONFIRM DELETE
      </Button>
    </Group>
  );
}
