import type { ExportFile } from '@back-office/contract/exports';
import { act } from '@testing-library/react';
import { beforeEach, vi } from 'vitest';
import { EXPORT_POLL_MS } from '../entities/exports/background-export.tsx';

/** A background export as `POST /api/exports` and `GET /api/exports/{id}` answer it: id 7, queued. */
export function exportFile(overrides: Partial<ExportFile> = {}): ExportFile {
  return {
    id: 7,
    source: 'subscribers',
    fileName: 'subscribers-export.xlsx',
    state: 'queued',
    progress: null,
    rows: null,
    bytes: null,
    createdAt: '2025-03-07T09:00:00.000Z',
    finishedAt: null,
    expiresAt: null,
    error: null,
    cancellable: true,
    ...overrides,
  };
}

/** An XLSX download named `fileName` in its `Content-Disposition`. */
export function xlsxResponse(fileName: string): Response {
  return new Response('xlsx bytes', {
    headers: {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': `attachment; filename="${fileName}"`,
    },
  });
}

/**
 * Records the names the browser is asked to save files under (jsdom has no object URLs; the download
 * is observed through the link's click). Call in the test or its `beforeEach`; the list fills as files
 * are saved.
 */
export function recordSavedFiles(): string[] {
  const savedNames: string[] = [];
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL = () => 'blob:export';
      static override revokeObjectURL = () => {};
    },
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    savedNames.push(this.download);
  });
  return savedNames;
}

/**
 * The set-up of a test file of background exports: before each test, the names of saved files are
 * recorded afresh (`savedNames()`), and the pauses between polls (and the toasts' closing) run on the
 * test's clock, which also follows the real one so that Testing Library's own waits go on; `elapse(ms)`
 * jumps ahead, by one pause between two polls by default.
 */
export function backgroundExportClock() {
  let saved: string[] = [];
  beforeEach(() => {
    saved = recordSavedFiles();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  });
  return {
    savedNames: () => saved,
    elapse: async (ms = EXPORT_POLL_MS) => {
      await act(() => vi.advanceTimersByTimeAsync(ms));
    },
  };
}
