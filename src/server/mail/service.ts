/**
 * Opens the mail of a server process from its configuration: `SMTP_URL` (nodemailer over SMTP,
 * from `MAIL_FROM`), else a mailbox in the data directory (`<dir>`, the development page lists
 * it), else in memory (tests, stores without a directory). Links use `PUBLIC_BASE_URL`.
 */
import { DEFAULT_MAIL_FROM, fileMailbox, memoryMailbox, smtpTransport } from './transport';
import type { MailTransport } from './transport';
import type { MailService } from './outbox';

export interface MailOptions {
  /** A transport of the caller's (tests: an SMTP catcher through `smtpTransport`). */
  transport?: MailTransport;
  /** Where kept mail goes when there is no SMTP (the data directory's `mail/`). */
  dir?: string;
  publicBaseUrl?: string;
}

export const DEFAULT_PUBLIC_BASE_URL = 'http://localhost:3000';

export function openMail(options: MailOptions = {}, env = process.env): MailService {
  const from = env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  const smtpUrl = env.SMTP_URL?.trim();
  const transport =
    options.transport ??
    (smtpUrl
      ? smtpTransport(smtpUrl, from)
      : options.dir
        ? fileMailbox(options.dir, from)
        : memoryMailbox(from));
  return {
    transport,
    publicBaseUrl: options.publicBaseUrl ?? env.PUBLIC_BASE_URL?.trim() ?? DEFAULT_PUBLIC_BASE_URL,
  };
}
