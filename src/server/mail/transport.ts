/**
 * Where e-mail goes (issue 16 point 5). With `SMTP_URL` set, nodemailer sends over SMTP from
 * `MAIL_FROM`; without it (the embedded default) every message is kept as a file in the data
 * directory's `mail/` folder, listed on the development-only page (dev.routes.ts), so a person
 * trying the product follows an invitation or a recovery link without a mail server. The outbox
 * handler (outbox.ts) calls `send` with the message's idempotency key as its Message-ID.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import { PermanentFailure } from '../store/outbox';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The outbox message's id: the Message-ID, so a receiver drops a duplicate delivery. */
  id: string;
  /** The recipient's language (the `Content-Language` header). */
  lang: 'es' | 'en';
}

/** A kept message, as the development page lists it. */
export interface StoredMail extends MailMessage {
  from: string;
  date: string;
}

export interface MailTransport {
  /** `smtp`: sent for real; `file`/`memory`: kept (file: the development page lists them). */
  readonly kind: 'smtp' | 'file' | 'memory';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface Mailbox extends MailTransport {
  list(limit?: number): StoredMail[];
  get(id: string): StoredMail | null;
}

/** SMTP reply codes that retrying cannot change (a rejected recipient, a refused sender). */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/** nodemailer over SMTP (`smtp://user:pass@host:port`, `smtps://…`), sending from `from`. */
export function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer is loaded with the first message, not at start (a server that sends no mail
  // never pays for it: issue 21, start time).
  let transporter: Promise<Transporter> | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(url),
    ));
  let closed = false;
  return {
    kind: 'smtp',
    async send(m) {
      try {
        await (
          await open()
        ).sendMail({
          from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          messageId: `<${m.id}@vitrina.mail>`,
          headers: { 'Content-Language': m.lang },
        });
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        if (isPermanent(error)) throw new PermanentFailure(text);
        throw new Error(text);
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      void transporter?.then((t) => t.close());
    },
  };
}

const safeId = (id: string) => id.replace(/[^A-Za-z0-9_.:-]/g, '_');

/** Messages kept as JSON files in `dir` (one per message, named by time and id). */
export function fileMailbox(dir: string, from: string): Mailbox {
  const read = (file: string): StoredMail | null => {
    try {
      return JSON.parse(readFileSync(join(dir, file), 'utf8')) as StoredMail;
    } catch {
      return null;
    }
  };
  const files = () => {
    try {
      return readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  };
  return {
    kind: 'file',
    send(m) {
      mkdirSync(dir, { recursive: true });
      const stored: StoredMail = { ...m, from, date: new Date().toISOString() };
      const existing = files().find((f) => f.endsWith(`--${safeId(m.id)}.json`));
      // The same message again (an outbox retry): kept once.
      if (!existing)
        writeFileSync(
          join(dir, `${stored.date.replace(/[:.]/g, '-')}--${safeId(m.id)}.json`),
          JSON.stringify(stored, null, 2),
        );
      return Promise.resolve();
    },
    list: (limit = 100) =>
      files()
        .slice(0, limit)
        .map(read)
        .filter((m): m is StoredMail => m !== null),
    get: (id) => {
      const file = files().find((f) => f.endsWith(`--${safeId(id)}.json`));
      return file ? read(file) : null;
    },
    close: () => undefined,
  };
}

/** Messages kept in memory (an in-memory store in tests, where there is no data directory). */
export function memoryMailbox(from: string): Mailbox {
  const kept: StoredMail[] = [];
  return {
    kind: 'memory',
    send(m) {
      if (!kept.some((k) => k.id === m.id))
        kept.unshift({ ...m, from, date: new Date().toISOString() });
      return Promise.resolve();
    },
    list: (limit = 100) => kept.slice(0, limit),
    get: (id) => kept.find((k) => k.id === id) ?? null,
    close: () => undefined,
  };
}

/** The default sender when `MAIL_FROM` is not set. */
export const DEFAULT_MAIL_FROM = 'Vitrina <no-reply@vitrina.local>';
