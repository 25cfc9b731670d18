import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { message } from '../../src/server/http/messages';

const root = join(import.meta.dirname, '../../src/ui/i18n/locales');

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      keys(v, prefix ? `${prefix}.${k}` : k),
    );
  }
  return [prefix];
}

const load = (lng: string, file: string) =>
  JSON.parse(readFileSync(join(root, lng, file), 'utf8')) as Record<string, unknown>;

describe('i18n resources', () => {
  const spanish = readdirSync(join(root, 'es')).filter((f) => f.endsWith('.json'));

  it('every namespace exists in both languages with the same keys (en complete)', () => {
    expect(spanish.length).toBeGreaterThanOrEqual(3);
    expect(readdirSync(join(root, 'en')).sort()).toEqual([...spanish].sort());
    for (const file of spanish) {
      expect(keys(load('en', file)).sort(), file).toEqual(keys(load('es', file)).sort());
    }
  });

  it('carries the spec §8 error catalogue literally', () => {
    const es = load('es', 'errors.json');
    const en = load('en', 'errors.json');
    expect(es.generic).toBe('Ocurrió un error inesperado, por favor contacte a soporte técnico');
    expect(en.generic).toBe('An unexpected error occurred, please contact technical support');
    expect(es.linkCopied).toBe('El link ha sido copiado correctamente al portapapeles');
    expect(en.linkCopied).toBe('The link has been successfully copied on the clipboard');
    expect(es.linkCopyFailed).toBe(
      'Ocurrió un error inesperado mientras se intentaba copiar el link',
    );
    expect(en.linkCopyFailed).toBe('An unexpected error occurred while trying to copy the link');
    expect(es.chatFailed).toBe('Error al conectar con el bot');
    expect(es.corporateNotFound).toBe('No se encontró corporativo');
    expect(es.userWithoutId).toBe('El usuario no tiene id');
    expect(es.pushUnsupported).toBe('Su navegador no es compatible con las notificaciones push');
    expect(es.pushDenied).toBe('No recibirás notificaciones push, por favor otorgue los permisos');
  });

  it('carries the shell texts of spec §2 and §6', () => {
    const es = load('es', 'shell.json') as {
      corporates: Record<string, string>;
      forbidden: Record<string, string>;
      settings: Record<string, string>;
    };
    const en = load('en', 'shell.json') as typeof es;
    expect(es.corporates.approvalPending).toBe('Falta aprobación');
    expect(en.corporates.approvalPending).toBe('Approval pending');
    expect(es.forbidden.title).toBe('No tienes permisos para ver el corporativo');
    expect(en.forbidden.title).toBe('You do not have permission to view this corporate');
    expect(es.settings.title).toBe('Configuraciones');
  });

  it('Spanish texts say "cliente", never the English "lead"', () => {
    const values = (value: unknown): string[] =>
      value && typeof value === 'object' ? Object.values(value).flatMap(values) : [String(value)];
    for (const file of spanish) {
      // `{{lead}}` is a parameter's name, not a word on screen.
      const words = values(load('es', file)).map((v) => v.replace(/\{\{\w+\}\}/g, ''));
      expect(
        words.filter((v) => /\blead/i.test(v)),
        file,
      ).toEqual([]);
    }
    // The server's own Spanish message too (a CRM export without a URL).
    expect(message('crm_no_export_url', 'es')).toBe(
      'No hay URL de exportación de clientes en el corporativo',
    );
  });

  it('the top bar’s title is Spanish in Spanish: "Panel", "Dashboard" in English', () => {
    const title = (lng: string) =>
      (load(lng, 'shell.json').title as Record<string, string>).dashboard;
    expect(title('es')).toBe('Panel');
    expect(title('en')).toBe('Dashboard');
  });

  it('every plural has the Spanish "many" form, so exact millions are never shown as a raw key', async () => {
    // CLDR puts 1 000 000, 2 000 000… in Spanish "many"; without a `_many` key i18next prints
    // the key itself (a report of exactly 1,000,000 quotations said "report.done").
    expect(new Intl.PluralRules('es').select(1_000_000)).toBe('many');
    for (const lng of ['es', 'en']) {
      for (const file of spanish) {
        const all = keys(load(lng, file));
        for (const key of all.filter((k) => k.endsWith('_other'))) {
          expect(all, `${lng}/${file} ${key}`).toContain(key.replace(/_other$/, '_many'));
        }
      }
    }
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'es', resources: { es: { shell: load('es', 'shell.json') } } });
    expect(i18n.t('home.units', { ns: 'shell', count: 1_000_000 })).not.toBe('home.units');
  });
});
