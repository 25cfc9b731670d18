/**
 * The e-mails of the people area, in the recipient's language (es default, en), each as text and
 * HTML. Parameters are plain text: the HTML escapes them.
 */
import { escapeHtml } from '../http/html';

export type MailTemplate =
  | 'invitacion'
  | 'acceso-agregado'
  | 'recuperacion'
  | 'registro-recibido'
  | 'registro-aprobado'
  | 'registro-rechazado';

export type MailLang = 'es' | 'en';

interface Copy {
  subject: string;
  /** Paragraphs; `{name}` fills a parameter. */
  body: string[];
  /** The button's text (the link). */
  action?: string;
  /** A paragraph after the link. */
  after?: string;
}

const copies: Record<MailTemplate, Record<MailLang, Copy>> = {
  invitacion: {
    es: {
      subject: 'Te invitaron a {corporativo} en Vitrina',
      body: [
        'Hola {nombre}:',
        '{invitador} te invitó a trabajar en {corporativo} en Vitrina.',
        'Crea tu contraseña para entrar. El enlace sirve una sola vez y vence el {vence}.',
      ],
      action: 'Crear mi contraseña',
      after: 'Si no esperabas esta invitación, ignora este correo.',
    },
    en: {
      subject: 'You are invited to {corporativo} on Vitrina',
      body: [
        'Hello {nombre},',
        '{invitador} invited you to work in {corporativo} on Vitrina.',
        'Set your password to sign in. The link works once and expires on {vence}.',
      ],
      action: 'Set my password',
      after: 'If you did not expect this invitation, ignore this e-mail.',
    },
  },
  'acceso-agregado': {
    es: {
      subject: 'Ya tienes acceso a {corporativo} en Vitrina',
      body: [
        'Hola {nombre}:',
        '{invitador} te dio acceso a {corporativo}. Entra con tu cuenta de siempre.',
      ],
      action: 'Iniciar sesión',
    },
    en: {
      subject: 'You now have access to {corporativo} on Vitrina',
      body: [
        'Hello {nombre},',
        '{invitador} gave you access to {corporativo}. Sign in with your usual account.',
      ],
      action: 'Sign in',
    },
  },
  recuperacion: {
    es: {
      subject: 'Restablece tu contraseña de Vitrina',
      body: [
        'Hola {nombre}:',
        'Recibimos una solicitud para restablecer tu contraseña. El enlace sirve una sola vez y vence en {minutos} minutos.',
        'Al cambiarla se cerrarán todas tus sesiones abiertas.',
      ],
      action: 'Restablecer mi contraseña',
      after: 'Si no lo pediste, ignora este correo: tu contraseña no cambia.',
    },
    en: {
      subject: 'Reset your Vitrina password',
      body: [
        'Hello {nombre},',
        'We received a request to reset your password. The link works once and expires in {minutos} minutes.',
        'Changing it signs you out everywhere.',
      ],
      action: 'Reset my password',
      after: 'If you did not ask for it, ignore this e-mail: your password does not change.',
    },
  },
  'registro-recibido': {
    es: {
      subject: 'Recibimos tu registro en {corporativo}',
      body: [
        'Hola {nombre}:',
        'Tu registro como broker en {corporativo} está pendiente de aprobación. Te avisaremos por correo cuando se apruebe.',
      ],
    },
    en: {
      subject: 'We received your registration with {corporativo}',
      body: [
        'Hello {nombre},',
        'Your broker registration with {corporativo} is waiting for approval. We will e-mail you when it is approved.',
      ],
    },
  },
  'registro-aprobado': {
    es: {
      subject: 'Tu registro en {corporativo} fue aprobado',
      body: ['Hola {nombre}:', 'Ya puedes trabajar en {corporativo} en Vitrina.'],
      action: 'Iniciar sesión',
    },
    en: {
      subject: 'Your registration with {corporativo} was approved',
      body: ['Hello {nombre},', 'You can now work in {corporativo} on Vitrina.'],
      action: 'Sign in',
    },
  },
  'registro-rechazado': {
    es: {
      subject: 'Tu registro en {corporativo} no fue aprobado',
      body: [
        'Hola {nombre}:',
        'Tu registro como broker en {corporativo} no fue aprobado.',
        'Motivo: {motivo}',
      ],
    },
    en: {
      subject: 'Your registration with {corporativo} was not approved',
      body: [
        'Hello {nombre},',
        'Your broker registration with {corporativo} was not approved.',
        'Reason: {motivo}',
      ],
    },
  },
};

const fill = (text: string, params: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The message `template` in `lang`, with `link` as its action (absent: no button). */
export function renderMail(
  template: MailTemplate,
  lang: MailLang,
  params: Record<string, string>,
  link?: string,
): RenderedMail {
  const copy = copies[template][lang];
  const subject = fill(copy.subject, params).replace(/[\r\n]+/g, ' ');
  const paragraphs = copy.body.map((p) => fill(p, params));
  const after = copy.after ? fill(copy.after, params) : null;
  const text = [
    ...paragraphs,
    ...(link && copy.action ? [`${copy.action}: ${link}`] : []),
    ...(after ? [after] : []),
    '— Vitrina',
  ].join('\n\n');
  const htmlParagraphs = copy.body.map((p) =>
    escapeHtml(p).replace(/\{(\w+)\}/g, (_, name: string) => escapeHtml(params[name] ?? '')),
  );
  const button =
    link && copy.action
      ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;background:#1f4e79;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(copy.action)}</a></p><p style="font-size:13px;color:#555">${escapeHtml(link)}</p>`
      : '';
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">${htmlParagraphs
    .map((p) => `<p>${p}</p>`)
    .join(
      '',
    )}${button}${after ? `<p style="color:#555">${escapeHtml(after)}</p>` : ''}<p>— Vitrina</p></body></html>`;
  return { subject, text, html };
}
