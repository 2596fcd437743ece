import { createErrorFactory } from '../../lib/errors.ts';

/** An export with more rows than the server streams itself: it is to be started with `POST /api/exports`. */
export const createExportTooLargeError = createErrorFactory({
  code: 'exports.too_large',
  status: 409,
  title: 'Conflict',
});

/** No export file has this id for this user (or it has been purged). */
export const createExportNotFoundError = createErrorFactory({
  code: 'exports.not_found',
  status: 404,
  title: 'Not Found',
});

/** The file is not written yet, or the export failed or was cancelled. */
export const createExportNotReadyError = createErrorFactory({
  code: 'exports.not_ready',
  status: 409,
  title: 'Conflict',
});

/** The file was kept its hours and is gone. */
export const createExportExpiredError = createErrorFactory({
  code: 'exports.expired',
  status: 410,
  title: 'Gone',
});

/** The export is over: nothing to cancel. */
export const createExportNotCancellableError = createErrorFactory({
  code: 'exports.not_cancellable',
  status: 409,
  title: 'Conflict',
});
