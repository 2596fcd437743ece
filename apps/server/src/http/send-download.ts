import type { FastifyReply } from 'fastify';

/** `attachment; filename=...` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Answers with a file to save: its content type and name whatever the Accept header asked for
 * (docs/decisions/003), never cached. `body` is a Buffer or a stream.
 */
export function sendDownload(
  reply: FastifyReply,
  { filename, contentType, body }: { filename: string; contentType: string; body: unknown },
) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', attachmentDisposition(filename))
    .header('cache-control', 'no-store')
    .send(body);
}
