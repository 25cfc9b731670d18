/**
 * The Clients label (issue 19): the corporate's own name per language, else its translation on
 * the labels page, else the app's word — never a Spanish name on an English screen.
 */
import { describe, expect, it } from 'vitest';
import { clientsLabelOf } from '../../src/ui/lib/corporate-labels';

describe('clientsLabelOf', () => {
  const both = { etiquetasClientes: { es: 'Mis clientes', en: 'My clients' } };
  const spanishOnly = { etiquetasClientes: { es: 'Mis clientes' } };

  it("the corporate's own name in the language wins", () => {
    expect(clientsLabelOf(both, 'es', undefined, 'Clientes')).toBe('Mis clientes');
    expect(clientsLabelOf(both, 'en', { clientes: { Clientes: 'Customers' } }, 'Clients')).toBe(
      'My clients',
    );
  });

  it("in English without an English name: the labels page's translation, not the Spanish name", () => {
    expect(
      clientsLabelOf(spanishOnly, 'en', { clientes: { 'Mis clientes': 'Our buyers' } }, 'Clients'),
    ).toBe('Our buyers');
    expect(
      clientsLabelOf(spanishOnly, 'en', { clientes: { Clientes: 'Customers' } }, 'Clients'),
    ).toBe('Customers');
    expect(clientsLabelOf(spanishOnly, 'en', undefined, 'Clients')).toBe('Clients');
    expect(clientsLabelOf(null, 'en', {}, 'Clients')).toBe('Clients');
  });
});
