import { createErrorFactory } from '../../lib/errors.ts';

/** The uploaded file cannot be imported: not CSV or XLSX, empty, too large, too many rows, no header row. */
export const createBadImportFileError = createErrorFactory({
  code: 'imports.bad_file',
  status: 400,
  title: 'Bad Request',
});

/** A mapping names a field the kind does not have, or a column the file does not have. */
export const createBadImportMappingError = createErrorFactory({
  code: 'imports.bad_mapping',
  status: 400,
  title: 'Bad Request',
});

/** No import has this id. */
export const createImportNotFoundError = createErrorFactory({
  code: 'imports.not_found',
  status: 404,
  title: 'Not Found',
});

/** The import is not at the step the call needs (e.g. a commit before a dry run, or a second commit). */
export const createImportWrongStatusError = createErrorFactory({
  code: 'imports.wrong_status',
  status: 409,
  title: 'Conflict',
});

/** Undo refused: records the import wrote were changed or used since; `detail` names them. */
export const createImportChangedSinceError = createErrorFactory({
  code: 'imports.changed_since',
  status: 409,
  title: 'Conflict',
});
