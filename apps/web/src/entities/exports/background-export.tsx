import type { ExportFile } from '@back-office/contract/exports';
import { Button, Group, Stack, Text } from '@mantine/core';
import { type NotificationData, notifications } from '@mantine/notifications';
import { ApiError, exportRefusedReason } from '../../lib/api-error.ts';
import { saveFile } from '../../lib/download.ts';
import { formatNumber } from '../../lib/format.ts';
import { notifyError, notifyInfo, TOAST_AUTO_CLOSE_MS } from '../../lib/notify.ts';
import {
  cancelExport,
  downloadExportFile,
  exportsInBackground,
  getExport,
  isExportTooLarge,
  type SearchMatches,
  type StartExportBody,
  startExport,
} from './api/exports.ts';

/** How long to wait between two reads of a running export (ms); the server writes progress every second. */
export const EXPORT_POLL_MS = 1000;

/** A background export that ended `failed`; `reason` is the server's `error` text, if any. */
export class ExportFailedError extends Error {
  readonly reason: string | undefined;

  constructor(file: ExportFile) {
    super(`Export ${file.id} failed${file.error ? `: ${file.error}` : ''}`);
    this.name = 'ExportFailedError';
    this.reason = file.error ?? undefined;
  }
}

/**
 * The sentence for people of a failed export, for the middle of the error toast: the server's reason
 * for a background export that failed, or why it refused to start one (see `exportRefusedReason`).
 */
export function exportFailureReason(error: unknown): string | undefined {
  return error instanceof ExportFailedError ? error.reason : exportRefusedReason(error);
}

function isUnderWay(file: ExportFile): boolean {
  return file.state === 'queued' || file.state === 'running';
}

/** "12 500 of 120 000 rows" in French number format; before the server has counted, what it is doing. */
function progressText(file: ExportFile): string {
  if (file.progress)
    return `${formatNumber(file.progress.done)} of ${formatNumber(file.progress.total)} rows`;
  return file.state === 'queued' ? 'Waiting to start...' : 'Starting...';
}

/**
 * The notification of an export under way: not closable (only Cancel ends it), `role="status"` so
 * that the progress, rewritten every second, is read politely rather than interrupting.
 */
function progressNotification(file: ExportFile, cancelling: boolean, onCancel: () => void): NotificationData {
  return {
    title: `Preparing ${file.fileName}`,
    message: (
      <Stack gap="xs">
        <Text size="sm">{progressText(file)}</Text>
        {file.cancellable ? (
          <Group justify="flex-end">
            <Button size="xs" variant="default" loading={cancelling} onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        ) : null}
      </Stack>
    ),
    role: 'status',
    loading: true,
    autoClose: false,
    allowClose: false,
  };
}

/** Resolves after `ms`, or as soon as the function handed to `onWakeUp` is called (the timer is then cleared). */
function pause(ms: number, onWakeUp: (wakeUp: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    onWakeUp(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Asks the server to cancel export `id`; true when it took the request. An export already over
 * (409 `exports.not_cancellable`) says nothing: the next read tells how it ended.
 */
async function requestCancel(id: number): Promise<boolean> {
  try {
    await cancelExport(id);
    return true;
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'exports.not_cancellable'))
      notifyError('cancelling the export');
    return false;
  }
}

/**
 * Runs one export in the background (contract `exports`): `POST /api/exports`, then
 * `GET /api/exports/{id}` every {@link EXPORT_POLL_MS} ms, one request at a time, while it is queued or
 * running. Meanwhile one notification says "Preparing {fileName}" and "{done} of {total} rows", with a
 * Cancel button (`POST /api/exports/{id}/cancel`).
 *
 * Returns the name the file was saved under (the download's `Content-Disposition`, else the export's
 * `fileName`), the notification then saying it is ready; or null when it was cancelled (here, or by an
 * Administrator on the Jobs screen), with an "Export cancelled" toast. Throws an
 * {@link ExportFailedError} when the export failed, and the {@link ApiError} of any call that failed;
 * the progress notification is then gone, the caller reports the error.
 */
export async function runBackgroundExport(request: StartExportBody): Promise<string | null> {
  let file = await startExport(request);
  const notificationId = `export-${file.id}`;
  let over = false;
  let cancelling: Promise<boolean> | null = null;
  let wakeUp = () => {};

  const showProgress = () =>
    notifications.update({
      id: notificationId,
      ...progressNotification(file, cancelling !== null, handleCancel),
    });
  const handleCancel = () => {
    if (over || cancelling) return;
    cancelling = requestCancel(file.id);
    showProgress();
    wakeUp();
  };

  notifications.show({ id: notificationId, ...progressNotification(file, false, handleCancel) });
  try {
    while (isUnderWay(file)) {
      if (!cancelling) {
        await pause(EXPORT_POLL_MS, (resume) => {
          wakeUp = resume;
        });
      }
      if (cancelling) {
        if (await cancelling) break;
        // Refused: the export goes on, and so does the reading.
        cancelling = null;
        showProgress();
        continue;
      }
      const latest = await getExport(file.id);
      // Cancel was pressed while this answer was on its way: the cancel decides.
      if (cancelling) continue;
      file = latest;
      showProgress();
    }
    over = true;

    if (cancelling || file.state === 'cancelled') {
      notifications.hide(notificationId);
      notifyInfo('Export cancelled');
      return null;
    }
    if (file.state === 'failed') throw new ExportFailedError(file);

    const downloaded = await downloadExportFile(file.id);
    const fileName = downloaded.filename ?? file.fileName;
    saveFile(downloaded.blob, fileName);
    notifications.update({
      id: notificationId,
      title: 'Yeah!',
      message: `${fileName} is ready`,
      color: 'green',
      loading: false,
      autoClose: TOAST_AUTO_CLOSE_MS,
      allowClose: true,
    });
    return fileName;
  } catch (error) {
    over = true;
    notifications.hide(notificationId);
    throw error;
  }
}

/**
 * One export of a search screen: inline (`download`, the `GET …/export` saving its file) when the
 * search's `matches` are few enough, else in the background with `request` (see
 * {@link runBackgroundExport}); an inline export the server refuses as too large (409
 * `exports.too_large`, the register grew since the search) goes to the background too. `request.query`
 * is to be the object the GET's query string was written from. Returns the saved file's name, or
 * null when a background export was cancelled.
 */
export async function exportInlineOrInBackground({
  matches,
  download,
  request,
}: {
  matches: SearchMatches;
  download: () => Promise<string>;
  request: StartExportBody;
}): Promise<string | null> {
  if (exportsInBackground(matches)) return runBackgroundExport(request);
  try {
    return await download();
  } catch (error) {
    if (isExportTooLarge(error)) return runBackgroundExport(request);
    throw error;
  }
}
