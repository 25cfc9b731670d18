import { describe, expect, it } from 'vitest';
import { labelOf, labelsFor, normaliseLabels } from '../../src/core/corporate-labels';
import { visitorLanguage } from '../../src/core/visitor-language';

describe('the visitor’s language on public pages (issue 19)', () => {
  it('is Spanish on a corporate without multiIdioma, whatever is asked', () => {
    expect(visitorLanguage({ multiIdioma: false, requested: 'en', preferred: ['en-US'] })).toBe(
      'es',
    );
  });
  it('follows the link’s lang, then the remembered choice, then the browser', () => {
    expect(
      visitorLanguage({ multiIdioma: true, requested: 'en', stored: 'es', preferred: ['es'] }),
    ).toBe('en');
    expect(visitorLanguage({ multiIdioma: true, stored: 'es', preferred: ['en-GB'] })).toBe('es');
    expect(
      visitorLanguage({ multiIdioma: true, stored: null, preferred: ['fr-FR', 'en-GB'] }),
    ).toBe('en');
    expect(visitorLanguage({ multiIdioma: true, requested: 'de', preferred: ['fr'] })).toBe('es');
    expect(visitorLanguage({ multiIdioma: true })).toBe('es');
  });
});

describe('corporate labels (core/corporate-labels.ts)', () => {
  it('normalises: trimmed, empty labels dropped, values sorted; refuses unknown kinds and long text', () => {
    const ok = normaliseLabels({
      status: { ' Vendido ': ' Sold ', Disponible: 'Available', X: '' },
    });
    expect(ok).toEqual({
      ok: true,
      labels: { status: { Disponible: 'Available', Vendido: 'Sold' } },
    });
    expect(normaliseLabels({ colores: { a: 'b' } }).ok).toBe(false);
    expect(normaliseLabels({ status: { a: 'b'.repeat(121) } }).ok).toBe(false);
  });
  it('looks a value up, the value itself without a translation; public kinds only when asked', () => {
    const labels = {
      en: { status: { Disponible: 'Available' }, statusLead: { Nuevo: 'New' } },
    };
    const en = labelsFor(labels, 'en', ['status']);
    expect(labelOf(en, 'status', 'Disponible')).toBe('Available');
    expect(labelOf(en, 'status', 'Vendido')).toBe('Vendido');
    expect(en.statusLead).toBeUndefined();
    expect(labelOf(labelsFor(labels, 'en'), 'statusLead', 'Nuevo')).toBe('New');
    expect(labelOf(undefined, 'status', 'Disponible')).toBe('Disponible');
  });
});
