import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createSmtpTransport } from '../src/modules/mail/mail.transport.ts';

/** One message as the SMTP server accepted it: the envelope's recipients and the raw MIME source. */
export type ReceivedMessage = { to: string[]; data: string };

/**
 * A real SMTP server on a free loopback port that keeps every message it accepts, and the app's own
 * SMTP transport pointed at it: what a test sends through it crosses a real SMTP conversation.
 * `parse(index)` reads a received message back (headers, text, attachments as Buffers). Call `close()`
 * in a `finally`.
 */
export async function startSmtpSink() {
  const received: ReceivedMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((address) => address.address),
          data: Buffer.concat(chunks).toString(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  const transport = createSmtpTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'office@example.org' });
  return {
    received,
    transport,
    parse: (index: number): Promise<ParsedMail> => {
      const message = received[index];
      if (!message) throw new Error(`the SMTP sink received no message number ${index}`);
      return simpleParser(message.data);
    },
    close: async () => {
      transport.close?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
