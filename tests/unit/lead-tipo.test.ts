/**
 * The lead's "Tipo" as a select (issue 19, defect 9): the product's fixed kinds, and a value
 * stored before (typed by hand, or from a CRM) kept as a choice so saving the form keeps it.
 */
import { describe, expect, it } from 'vitest';
import {
  isLeadTipo,
  LEAD_TIPOS,
  leadTipoOptions,
} from '../../src/ui/features/leads/utils/lead-form';

const label = (tipo: string) => `[${tipo}]`;

describe('leadTipoOptions', () => {
  it('offers the three kinds, labelled, in order', () => {
    expect(LEAD_TIPOS).toEqual(['Comprador', 'Inversionista', 'Arrendatario']);
    expect(leadTipoOptions('', label)).toEqual([
      { value: 'Comprador', label: '[Comprador]' },
      { value: 'Inversionista', label: '[Inversionista]' },
      { value: 'Arrendatario', label: '[Arrendatario]' },
    ]);
    expect(leadTipoOptions('Inversionista', label)).toHaveLength(3);
  });

  it('keeps a stored value outside the kinds as a choice of its own', () => {
    const options = leadTipoOptions('Cliente VIP', label);
    expect(options).toHaveLength(4);
    expect(options[3]).toEqual({ value: 'Cliente VIP', label: 'Cliente VIP' });
    expect(isLeadTipo('Cliente VIP')).toBe(false);
    expect(isLeadTipo('Comprador')).toBe(true);
  });
});
