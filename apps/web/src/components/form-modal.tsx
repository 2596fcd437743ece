import { Modal } from '@mantine/core';
import type { ReactNode } from 'react';

type FormModalProps = {
  opened: boolean;
  title: string;
  /** While true (the server has not answered yet), Escape and the close icon do nothing. */
  busy?: boolean;
  /** Width of the dialog; Mantine's `md` by default. */
  size?: 'sm' | 'md' | 'lg';
  onClose: () => void;
  children: ReactNode;
};

/**
 * The Add/Edit dialog frame of every list screen (part 1 §2 Users, Products, Reference-data lists;
 * §4 Modal): static backdrop (clicking outside does not close it); Escape and the close icon close it,
 * except while a save waits for the server: the dialog stays until the server answers, so a refusal is shown in it.
 */
export function FormModal({ opened, title, busy = false, size = 'md', onClose, children }: FormModalProps) {
  const handleClose = () => {
    if (!busy) onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={title}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close' }}
      size={size}
      centered
    >
      {children}
    </Modal>
  );
}
