/**
 * The development-only mailbox page (issue 16 point 5): with no SMTP configured, the mails the
 * server "sent" are kept in the data directory, and `GET /dev/correos` lists them (newest first)
 * with their links, so a person trying the product can follow an invitation or a recovery link.
 * main.ts mounts it only when mail is kept (no `SMTP_URL`) and `NODE_ENV` is not `production`,
 * and it answers only callers on this machine (loopback): the links are credentials.
 */
import { Hono } from 'hono';
import type { Context, Next } from 'hono';
import { clientAddress } from '../http/proxy';
import type { Env } from '../http/context';
import type { Mailbox } from './transport';

const esc = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const isLoopback = (address: string) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #ccc;vertical-align:top}pre{white-space:pre-wrap;background:#f4f4f4;padding:1rem}a{color:#0b4f8a}</style></head><body><main>${body}</main></body></html>`;

export function devMailRoutes(mailbox: Mailbox) {
  const localOnly = async (c: Context<Env>, next: Next) => {
    if (!isLoopback(clientAddress(c))) return c.text('Not found', 404);
    await next();
    return undefined;
  };
  return new Hono<Env>()
    .use('/dev/correos', localOnly)
    .use('/dev/correos/*', localOnly)
    .get('/dev/correos', (c) => {
      const rows = mailbox
        .list(200)
        .map(
          (m) =>
            `<tr><td>${esc(m.date)}</td><td>${esc(m.to)}</td><td><a href="/dev/correos/${encodeURIComponent(m.id)}">${esc(m.subject)}</a></td></tr>`,
        )
        .join('');
      return c.html(
        page(
          'Correos enviados (desarrollo)',
          `<h1>Correos enviados (desarrollo)</h1><p>Sin SMTP configurado (<code>SMTP_URL</code>), los correos se guardan aquí en lugar de enviarse. / Without SMTP, mails are kept here instead of being sent.</p>${
            rows
              ? `<table><thead><tr><th>Fecha</th><th>Para</th><th>Asunto</th></tr></thead><tbody>${rows}</tbody></table>`
              : '<p>No hay correos. / No mails yet.</p>'
          }`,
        ),
      );
    })
    .get('/dev/correos/:id', (c) => {
      const m = mailbox.get(c.req.param('id'));
      if (!m) return c.text('Not found', 404);
      const links = [...m.text.matchAll(/https?:\/\/\S+/g)].map((x) => x[0]);
      return c.html(
        page(
          m.subject,
          `<p><a href="/dev/correos">← Correos</a></p><h1>${esc(m.subject)}</h1><p>Para: ${esc(m.to)} · De: ${esc(m.from)} · ${esc(m.date)}</p>${links
            .map((l) => `<p><a href="${esc(l)}">${esc(l)}</a></p>`)
            .join('')}<h2>Texto</h2><pre>${esc(m.text)}</pre>`,
        ),
      );
    });
}
