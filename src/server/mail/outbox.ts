/**
 * E-mail through the outbox (store/outbox.ts): a mail is queued in the transaction of what causes
 * it (an invitation, a recovery request, an approval), and the `email` handler renders it in the
 * recipient's language and sends it through the transport, with the outbox's retries, backoff and
 * dead letter. A single-use link is written at send time from its token row (links.ts): the
 * outbox row holds the row's id, never the token.
 */
import type { BackgroundWork } from '../store/background-work';
import type { Db, Queryable } from '../store/db';
import { enqueueOutbox, PermanentFailure } from '../store/outbox';
import { linkKey, publicLink, tokenFor } from './links';
import { renderMail, type MailLang, type MailTemplate } from './templates';
import type { MailTransport } from './transport';

export const MAIL_OUTBOX = 'email';

/** What the people area's mail needs: where it goes, and the base of its links. */
export interface MailService {
  transport: MailTransport;
  /**
   * The address people open the app at (`PUBLIC_BASE_URL`), for every link in a mail: never the
   * request's Host header, which a caller chooses.
   */
  publicBaseUrl: string;
}

/** One mail to queue. */
export interface MailJob {
  template: MailTemplate;
  to: string;
  lang: MailLang;
  params: Record<string, string>;
  /** The action's target: an in-app path, with the token of row `tokenId` as `?token=`. */
  link?: { path: string; tokenId?: string };
}

/** Queues a mail in the caller's transaction; answers the outbox id. */
export function enqueueMail(
  tx: Queryable,
  job: MailJob,
  options: { id?: string; causeEventId?: string | null } = {},
): Promise<string> {
  return enqueueOutbox(tx, {
    kind: MAIL_OUTBOX,
    payload: job,
    ...(options.id ? { id: options.id } : {}),
    causeEventId: options.causeEventId ?? null,
  });
}

function isJob(value: unknown): value is MailJob {
  const v = value as Partial<MailJob> | null;
  return (
    typeof v?.template === 'string' &&
    typeof v.to === 'string' &&
    (v.lang === 'es' || v.lang === 'en') &&
    typeof v.params === 'object'
  );
}

/** Registers the `email` outbox handler of this process. */
export function registerMailWork(work: BackgroundWork, db: Db, mail: MailService): void {
  work.registerOutbox(MAIL_OUTBOX, async (m) => {
    if (!isJob(m.payload)) throw new PermanentFailure('malformed mail message');
    const job = m.payload;
    let link: string | undefined;
    if (job.link) {
      const params: Record<string, string> = {};
      if (job.link.tokenId) params.token = tokenFor(await linkKey(db), job.link.tokenId);
      link = publicLink(mail.publicBaseUrl, job.link.path, params);
    }
    const rendered = renderMail(job.template, job.lang, job.params, link);
    await mail.transport.send({ ...rendered, to: job.to, id: m.idempotencyKey, lang: job.lang });
  });
}
