import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cancelMeasure, endMeasure, startMeasure, useEndMeasureWhenDrawn } from './perf-marks.ts';

const measures = (name: string) =>
  performance.getEntriesByType('measure').filter((entry) => entry.name === name);

afterEach(() => {
  performance.clearMarks();
  performance.clearMeasures();
  vi.useRealTimers();
});

describe('perf marks', () => {
  it('measures from start to end once, with its start and end marks', () => {
    startMeasure('search-to-rows:sales');
    endMeasure('search-to-rows:sales');
    endMeasure('search-to-rows:sales');
    const [measure, ...others] = measures('search-to-rows:sales');
    expect(others).toEqual([]);
    expect(measure?.duration).toBeGreaterThanOrEqual(0);
    expect(performance.getEntriesByName('search-to-rows:sales:start', 'mark')).toHaveLength(1);
    expect(performance.getEntriesByName('search-to-rows:sales:end', 'mark')).toHaveLength(1);
  });

  it('records nothing without a start, after a cancel, or for a start over a minute old', () => {
    endMeasure('search-to-rows:donations');
    startMeasure('login-to-dashboard');
    cancelMeasure('login-to-dashboard');
    endMeasure('login-to-dashboard');
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    startMeasure('search-to-rows:subscribers');
    now.mockReturnValue(62_000);
    endMeasure('search-to-rows:subscribers');
    expect(performance.getEntriesByType('measure')).toEqual([]);
  });

  it('ends the measure after the frame that shows the drawn state, not before', async () => {
    startMeasure('login-to-dashboard');
    const { rerender } = renderHook(({ drawn }) => useEndMeasureWhenDrawn('login-to-dashboard', drawn), {
      initialProps: { drawn: false },
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(measures('login-to-dashboard')).toEqual([]);
    rerender({ drawn: true });
    expect(measures('login-to-dashboard')).toEqual([]);
    await vi.waitFor(() => expect(measures('login-to-dashboard')).toHaveLength(1));
  });
});
