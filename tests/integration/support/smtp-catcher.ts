/**
 * An in-process SMTP server that keeps what it receives, parsed by mailparser (issue 16 tests):
 * the server's real nodemailer transport sends to it over loopback, and tests read the links out
 * of real mails.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Catcher {
  url: string;
  mails: ParsedMail[];
  /** Mails to `to`, oldest first. */
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

export async function startSmtpCatcher(): Promise<Catcher> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address) =>
      mails.filter((m) =>
        (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).some((t) =>
          t.value.some((v) => v.address?.toLowerCase() === address.toLowerCase()),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link of a mail's text that goes to `path`. */
export function linkIn(mail: ParsedMail, path: string): URL {
  const found = (mail.text ?? '').match(/https?:\/\/\S+/g)?.map((u) => new URL(u));
  const url = found?.find((u) => u.pathname === path);
  if (!url) throw new Error(`no ${path} link in: ${mail.text}`);
  return url;
}
