import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { OutboxMessageRow } from './mail.table.ts';

/**
 * Who a message is from when not `MAIL_FROM`: the organisation's sender of the settings (display name
 * and address), replies going to its address.
 */
export type MailSender = { from: { name: string; address: string }; replyTo: string };

/**
 * Delivers one outbox message, from `sender` when given (else `MAIL_FROM`); throws when delivery fails
 * (the worker retries).
 */
export type MailTransport = {
  send: (message: OutboxMessageRow, sender?: MailSender) => Promise<void>;
  close?: () => void;
  describe: string;
};

function toNodemailerMessage(from: string, message: OutboxMessageRow, sender?: MailSender) {
  return {
    // nodemailer quotes and encodes the display name (accents, commas) itself.
    from: sender?.from ?? from,
    ...(sender ? { replyTo: sender.replyTo } : {}),
    headers: message.headers,
    to: message.toAddress,
    subject: message.subject,
    text: message.textBody,
    html: message.htmlBody ?? undefined,
    messageId: message.messageId,
    attachments: message.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: Buffer.from(attachment.contentBase64, 'base64'),
    })),
  };
}

/**
 * Sends over SMTP with nodemailer (`SMTP_URL`, e.g. `smtp://user:pass@host:587`) on pooled
 * connections (nodemailer's pool: up to 100 messages per connection). `?pool=false` in the URL
 * opens one connection per message; other nodemailer options may be given there too.
 */
export function createSmtpTransport({ smtpUrl, from }: { smtpUrl: string; from: string }): MailTransport {
  // A connection per message pays the TCP/TLS handshake and the server's greeting delay (100 ms and
  // more on many servers) every time: a 5,000-message bulk email would take minutes instead of seconds.
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  // Give up on a silent server well within the outbox lease (MAIL_LEASE_SECONDS, 120 s by default),
  // so another worker never takes over a send still in progress (nodemailer waits 10 min by default).
  for (const [name, milliseconds] of [
    ['connectionTimeout', 30_000],
    ['greetingTimeout', 30_000],
    ['socketTimeout', 60_000],
  ] as const) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(milliseconds));
  }
  const transporter = nodemailer.createTransport(url.toString());
  return {
    describe: 'SMTP',
    send: async (message, sender) => {
      await transporter.sendMail(toNodemailerMessage(from, message, sender));
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP: writes each message as an `.eml` file under `dir` (so a person can open it)
 * and logs its subject and recipient. Nothing is silently dropped (docs/spec/design.md §Stack, "email").
 */
export function createCaptureTransport({
  dir,
  from,
  log,
}: {
  dir: string;
  from: string;
  log: (line: string) => void;
}): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `captured to ${dir}`,
    send: async (message, sender) => {
      const info = await transporter.sendMail(toNodemailerMessage(from, message, sender));
      await mkdir(dir, { recursive: true });
      const stamp = message.createdAt.toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${String(message.id).padStart(6, '0')}.eml`);
      await writeFile(file, info.message as Buffer);
      log(`mail captured: ${file}`);
    },
  };
}
