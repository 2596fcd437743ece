import { useEffect } from 'react';

/**
 * User Timing measures of the client's speed figures, read in Chromium by
 * `bench/client.bench.ts` with `performance.getEntriesByType('measure')`:
 * - `login-to-dashboard`: the Log In click to the dashboard drawn with its data;
 * - `search-to-rows:<screen>`: the Search click (or Enter in the panel) to the first rows drawn.
 * Durations are milliseconds (a `PerformanceMeasure` named as above, with `<name>:start` and
 * `<name>:end` marks). A start that is not ended within a minute (a search that found nothing, a
 * login that went elsewhere) is dropped rather than measured later.
 */
export type MeasureName = 'login-to-dashboard' | `search-to-rows:${'subscribers' | 'donations' | 'sales'}`;

const STALE_AFTER_MS = 60_000;
/** Start times (performance.now()) of the measures under way, by name. */
const started = new Map<MeasureName, number>();
/** Old browsers and some test DOMs lack the User Timing API: then nothing is recorded. */
const hasUserTiming = () =>
  typeof performance.mark === 'function' && typeof performance.measure === 'function';

/** Starts (or starts again) the measure `name` now. */
export function startMeasure(name: MeasureName): void {
  if (!hasUserTiming()) return;
  started.set(name, performance.now());
  performance.mark(`${name}:start`);
}

/** Forgets the measure `name` under way, if any (e.g. a login refused). */
export function cancelMeasure(name: MeasureName): void {
  started.delete(name);
}

/** Ends the measure `name` now and records it; nothing when it was not started or is stale. */
export function endMeasure(name: MeasureName): void {
  const start = started.get(name);
  if (start === undefined) return;
  started.delete(name);
  const end = performance.now();
  if (end - start > STALE_AFTER_MS) return;
  performance.mark(`${name}:end`);
  performance.measure(name, { start, end });
}

/**
 * Ends the measure `name` once `drawn` is true and the frame showing it has been painted (the next
 * animation frame, then a task: by then the browser has drawn the committed DOM).
 */
export function useEndMeasureWhenDrawn(name: MeasureName, drawn: boolean): void {
  useEffect(() => {
    if (!drawn || !started.has(name)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => endMeasure(name), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [name, drawn]);
}
