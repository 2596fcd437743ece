import { Table, Transition } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';

/** Row animation of part 1 §4/§9: 900 ms in, 300 ms out. */
const FADE_IN_MS = 900;
const FADE_OUT_MS = 300;

type FadingRowProps = {
  /** Set once the server deleted the row's item: the row fades out, then `onRemoved` runs. */
  removed: boolean;
  onRemoved: () => void;
  /**
   * Whether the row fades in when it first mounts (default true). A virtualised list passes false
   * for rows that were already shown once, so that scrolling back does not fade them in again.
   */
  appear?: boolean;
  children: ReactNode;
};

/**
 * A table row of a list screen that fades in when shown and fades out once its item was deleted
 * (part 1 §4 Row delete: "The row fades out on deletion (300 ms out, 900 ms in)").
 */
export function FadingRow({ removed, onRemoved, appear = true, children }: FadingRowProps) {
  const [shown, setShown] = useState(!appear);

  useEffect(() => {
    setShown(true);
  }, []);

  return (
    <Transition
      mounted={shown && !removed}
      transition="fade"
      duration={FADE_IN_MS}
      exitDuration={FADE_OUT_MS}
      onExited={() => {
        if (removed) onRemoved();
      }}
    >
      {(styles) => <Table.Tr style={styles}>{children}</Table.Tr>}
    </Transition>
  );
}
