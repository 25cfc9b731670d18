/**
 * The people area's mail pieces (issue 16), without I/O: the templates in both languages as text
 * and HTML (names escaped in the HTML), links on the public base URL (its path kept), tokens
 * derived from the row id (the same every time, different per row, never the id itself), and the
 * registration form's agency list (OTRO last).
 */
import { describe, expect, it } from 'vitest';
import { agencyOptions } from '../../../src/server/auth/people.routes';
import { publicLink, tokenFor, tokenHash } from '../../../src/server/mail/links';
import { renderMail } from '../../../src/server/mail/templates';

describe('mail templates', () => {
  const params = {
    nombre: 'Inés',
    invitador: 'Ana <b>Robles</b>',
    corporativo: 'Grupo "Horizonte" & Co',
    vence: '2026-12-02',
  };

  it('writes the invitation in Spanish and in English, text and HTML, with the link', () => {
    const es = renderMail('invitacion', 'es', params, 'https://vitrina.example/acceso?token=abc');
    expect(es.subject).toBe('Te invitaron a Grupo "Horizonte" & Co en Vitrina');
    expect(es.text).toContain('Crear mi contraseña: https://vitrina.example/acceso?token=abc');
    expect(es.text).toContain('vence el 2026-12-02');
    expect(es.html).toContain('lang="es"');
    expect(es.html).toContain('href="https://vitrina.example/acceso?token=abc"');
    const en = renderMail('invitacion', 'en', params, 'https://vitrina.example/acceso?token=abc');
    expect(en.subject).toBe('You are invited to Grupo "Horizonte" & Co on Vitrina');
    expect(en.html).toContain('Set my password');
  });

  it('escapes what people typed in the HTML, and keeps the subject on one line', () => {
    const mail = renderMail('registro-rechazado', 'es', {
      nombre: '<script>alert(1)</script>',
      corporativo: 'X\r\nBcc: a@b.c',
      motivo: '<img src=x onerror=alert(1)>',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain('Motivo: <img src=x onerror=alert(1)>');
  });

  it('has no action button without a link', () => {
    expect(
      renderMail('registro-recibido', 'en', { nombre: 'A', corporativo: 'B' }).html,
    ).not.toContain('<a ');
  });
});

describe('links and tokens', () => {
  it('builds links on the public base URL, keeping its path', () => {
    expect(publicLink('https://host.example', '/acceso', { token: 'a b' })).toBe(
      'https://host.example/acceso?token=a+b',
    );
    expect(publicLink('https://host.example/app/', '/recuperar', { token: 't' })).toBe(
      'https://host.example/app/recuperar?token=t',
    );
    expect(publicLink('https://host.example/app', '/login', {})).toBe(
      'https://host.example/app/login',
    );
  });

  it('derives a 43-character token per row id; only its hash is stored', () => {
    const key = Buffer.alloc(32, 7);
    const a = tokenFor(key, 'row-1');
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenFor(key, 'row-1')).toBe(a);
    expect(tokenFor(key, 'row-2')).not.toBe(a);
    expect(tokenFor(Buffer.alloc(32, 8), 'row-1')).not.toBe(a);
    expect(tokenHash(a)).not.toBe(a);
    expect(tokenHash(a)).toBe(tokenHash(a));
  });
});

describe('registration agencies', () => {
  it('lists the corporate’s agencies sorted, without blanks or duplicates, OTRO last', () => {
    expect(
      agencyOptions({
        inmobiliarias: [
          { label: 'Zeta' },
          { label: 'otro' },
          { label: ' ' },
          { label: 'Alfa' },
          { label: 'Zeta' },
        ],
      }),
    ).toEqual(['Alfa', 'Zeta', 'OTRO']);
    expect(agencyOptions({})).toEqual(['OTRO']);
  });
});
