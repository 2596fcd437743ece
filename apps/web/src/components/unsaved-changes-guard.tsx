import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';
import { paths } from '../config/paths.ts';

/** Part 2 §2 routes, §2.2: the question asked before leaving with unsaved changes. */
export const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes! If you leave, your changes will be lost.';

/** What {@link useUnsavedChangesGuard} gives back. */
export type UnsavedChangesGuard = {
  /** The confirmation dialog; render it once in the screen. */
  dialog: ReactNode;
  /** Lets the next navigation through without asking (e.g. to the page of a subscriber just created). */
  allowNextNavigation: () => void;
};

/**
 * Guards unsaved changes (part 2 §2 "leaving with unsaved changes asks: You have unsaved changes! If
 * you leave, your changes will be lost."; §2.2 "A warning is shown before leaving the page"; §4 "The
 * unsaved-changes guard reports a dirty form, saving in progress, or changed tags"):
 * - a route change inside the app, and the browser's Back and Forward (the data router's blocker
 *   holds history moves too, and puts the address back on Stay), asks with a dialog (Stay / Leave);
 *   a history entry made by typing an address in the bar is not the router's and cannot be held;
 *   going to the login screen (the session ended) is never held;
 * - closing or reloading the tab asks through the browser's own `beforeunload` prompt.
 * Used by the subscriber screen and the New Sale screen (part 2 §2.6), whose lines are lost on leaving.
 */
export function useUnsavedChangesGuard(when: boolean): UnsavedChangesGuard {
  const whenRef = useRef(when);
  whenRef.current = when;
  const allowOnce = useRef(false);

  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    if (allowOnce.current) {
      allowOnce.current = false;
      return false;
    }
    if (!whenRef.current) return false;
    if (nextLocation.pathname === paths.login.href()) return false;
    return currentLocation.pathname !== nextLocation.pathname;
  }, []);
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!when) return undefined;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [when]);

  const blocked = blocker.state === 'blocked';
  const dialog = (
    <Modal
      opened={blocked}
      onClose={() => blocker.reset?.()}
      title="Unsaved changes"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text>{UNSAVED_CHANGES_MESSAGE}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
            Stay
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            Leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );

  return {
    dialog,
    allowNextNavigation: () => {
      allowOnce.current = true;
    },
  };
}
