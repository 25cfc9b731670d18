/**
 * The e-mail link of a lead (spec §3 message template `prospecto`), as the WhatsApp link
 * (`whatsapp.ts`): the development's template, else the corporate's, with `{nombre}`, `{asesor}`,
 * `{corporativo}` and `{desarrollo}` filled in, as the body of a `mailto:` with a subject. A link
 * only: the adviser's own mail program sends it.
 *
 * Unlike WhatsApp's, the body keeps its line breaks (written CRLF, as RFC 6068 asks), and every
 * part is percent-encoded (`encodeURIComponent`: `&`, `?`, `#` and spaces inside the text cannot
 * cut the query).
 */

import { fillTemplate } from './whatsapp';

export interface EmailInput {
  template: string | null | undefined;
  /** The lead's e-mail address. */
  email: string | null | undefined;
  /** The subject, already in the interface's language. */
  subject: string;
  nombre: string;
  asesor: string;
  corporativo: string;
  desarrollo: string;
}

const ADDRESS = /^[^\s@<>(),;:"\\[\]]+@[^\s@<>(),;:"\\[\]]+\.[^\s@<>(),;:"\\[\]]+$/;

/** The `mailto:` link, or null when the lead has no address a mail program could take. */
export function emailLink(input: EmailInput): string | null {
  const address = (input.email ?? '').trim();
  if (!ADDRESS.test(address)) return null;
  const body = input.template
    ? fillTemplate(input.template, {
        nombre: input.nombre,
        asesor: input.asesor,
        corporativo: input.corporativo,
        desarrollo: input.desarrollo,
      })
        .replace(/\r?\n/g, '\r\n')
        .trim()
    : '';
  const query = [
    input.subject.trim() ? `subject=${encodeURIComponent(input.subject.trim())}` : null,
    body ? `body=${encodeURIComponent(body)}` : null,
  ].filter(Boolean);
  // The address's `@` stays as written; anything else in it that a URL reserves is encoded.
  const to = address.split('@').map(encodeURIComponent).join('@');
  return query.length > 0 ? `mailto:${to}?${query.join('&')}` : `mailto:${to}`;
}
