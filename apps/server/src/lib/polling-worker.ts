/**
 * Runs `work` now and then: every `pollIntervalMs`, and soon after `nudge()`. Concurrent calls of
 * `runOnce` share one run (a call made during a run asks for one more pass). Used by the mail
 * worker and the annual receipt run.
 */
export function createPollingWorker({
  work,
  pollIntervalMs,
  onError,
}: {
  /** Does what is due now; resolves with how many things it handled. */
  work: (shouldStop: () => boolean) => Promise<number>;
  pollIntervalMs: number;
  onError: (error: unknown) => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  let again = false;

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await work(() => stopped);
        } while (again && !stopped);
      } finally {
        running = undefined;
      }
      return total;
    })();
    return running;
  }

  function tick() {
    runOnce()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollIntervalMs);
      });
  }

  return {
    runOnce,
    nudge: () => {
      if (!stopped) setImmediate(() => void runOnce().catch(onError));
    },
    start: () => {
      stopped = false;
      timer = setTimeout(tick, 0);
    },
    /** Stops polling and waits for the run in hand to finish. */
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
