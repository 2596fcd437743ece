import type { FastifyRequest } from 'fastify';
import type { AppError, FieldError } from '../lib/errors.ts';

/** One uploaded file, read into memory: its name as the browser gave it and its bytes. */
export type UploadedFile = { fileName: string; bytes: Buffer };

/** A multipart upload: the file (absent when none was sent) and the text fields by name. */
export type Upload = { file?: UploadedFile; fields: Record<string, string> };

/**
 * Reads a `multipart/form-data` request of one file and a few text fields, under the limits of the
 * `@fastify/multipart` registration of the routes' plugin. Every failure is a 400 made by `badFile`
 * (the module's own error code) with a sentence for the user:
 * - not multipart: `notMultipart`, naming the fields expected;
 * - over the size limit: `tooLarge`;
 * - any other malformed form: "The upload is not a valid multipart form.".
 * @throws what `badFile` makes, or the stream's error when it is not a multipart one.
 */
export async function readUpload(
  request: FastifyRequest,
  {
    badFile,
    notMultipart,
    tooLarge,
  }: {
    badFile: (detail: string, errors?: FieldError[]) => AppError;
    notMultipart: string;
    tooLarge: string;
  },
): Promise<Upload> {
  if (!request.isMultipart()) {
    throw badFile(notMultipart, [{ path: 'file', message: 'Choose a file.' }]);
  }
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        file = { fileName: part.filename, bytes: await part.toBuffer() };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badFile(tooLarge);
    if (code?.startsWith('FST_')) throw badFile('The upload is not a valid multipart form.');
    throw error;
  }
  return file ? { file, fields } : { fields };
}

/** The file of an {@link Upload}. @throws what `badFile` makes ("No file was sent.", field `file`). */
export function requireFile(
  upload: Upload,
  badFile: (detail: string, errors?: FieldError[]) => AppError,
): UploadedFile {
  if (!upload.file) throw badFile('No file was sent.', [{ path: 'file', message: 'Choose a file.' }]);
  return upload.file;
}
