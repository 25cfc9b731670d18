import { describe, expect, it } from 'vitest';
import {
  emptyUnitFilters,
  matchesOnlyWithHiddenPrice,
  rangeProblem,
  unitMatchesFilters,
  type FilterContext,
} from '../../src/core/filters';
import { mayEditLegalData } from '../../src/core/legal-data';
import { pageOf } from '../../src/core/navigation';
import { quotationFolio } from '../../src/core/quotation';
import type { Role, StatusColors, Unit } from '../../src/core/types';
import { printPageCss } from '../../src/ui/lib/paper-size';

describe('the quotation as a document (issue 19)', () => {
  it('prints a quotation number as a six-digit folio, and nothing for none or a bad one', () => {
    expect(quotationFolio(1)).toBe('COT-000001');
    expect(quotationFolio(42)).toBe('COT-000042');
    expect(quotationFolio(1_234_567)).toBe('COT-1234567');
    for (const bad of [undefined, null, 0, -3, 1.5, Number.NaN])
      expect(quotationFolio(bad)).toBe(null);
  });

  it('sets the page size to the paper chosen, with page x / y and the folio in the margins', () => {
    const letter = printPageCss('letter', { pageLabel: 'Página', folio: 'COT-000007' });
    expect(letter).toContain('size: letter;');
    expect(letter).toContain(
      '@bottom-right { content: "Página " counter(page) " / " counter(pages);',
    );
    expect(letter).toContain('@bottom-left { content: "COT-000007";');
    const a4 = printPageCss('a4', { pageLabel: 'Page' });
    expect(a4).toContain('size: A4;');
    expect(a4).not.toContain('@bottom-left');
    // A label cannot close the CSS string it is written in.
    expect(printPageCss('a4', { pageLabel: 'P"}\\x' })).toContain('content: "P\\"}\\\\x "');
  });

  it('only the administrator sets the legal data', () => {
    const role = (activarAdminUsuarios: boolean) =>
      ({ id: 'r', nombre: 'r', permisos: { activarAdminUsuarios } }) as unknown as Role;
    expect(mayEditLegalData(role(true))).toBe(true);
    expect(mayEditLegalData(role(false))).toBe(false);
    expect(mayEditLegalData(null)).toBe(false);
  });

  it('titles the client quotation and legal data pages', () => {
    expect(pageOf('/corporativos/gh/clientes/l1/cotizaciones/q1')).toBe('clientQuotation');
    expect(pageOf('/corporativos/gh/clientes/l1/cotizaciones')).toBe('notFound');
    expect(pageOf('/corporativos/gh/clientes/l1/otra/q1')).toBe('notFound');
    expect(pageOf('/corporativos/gh/datos-legales')).toBe('legalData');
    expect(pageOf('/corporativos/gh/clientes/l1')).toBe('client');
  });
});

describe('filter counts and ranges (issue 19, defect 3)', () => {
  const entry = (visible: boolean) => ({
    color: { hexColor: '#000000' },
    disponibilidad: visible ? 'Disponible' : 'No disponible',
    esCotizable: visible,
    esPrecioVisible: visible,
  });
  const colors: StatusColors = { Disponible: entry(true), Vendido: entry(false) };
  const ctx: FilterContext = { statusColors: colors, hideUnavailablePrices: true };
  const unit = (status: string, precio: number, area: number) =>
    ({
      id: `${status}-${precio}`,
      status,
      precio,
      categoria: 'Departamento',
      caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
      metrajes: { areaTotal: area },
      idPrototipo: 'p',
    }) as unknown as Unit;

  it('tells the units matched only because their price is hidden from the real matches', () => {
    const filters = { ...emptyUnitFilters(), precioMin: 4_000_000, precioMax: 6_000_000 };
    const inRange = unit('Disponible', 5_000_000, 95);
    const outOfRange = unit('Disponible', 9_000_000, 95);
    const soldHidden = unit('Vendido', 9_000_000, 95);
    expect(unitMatchesFilters(soldHidden, filters, ctx)).toBe(true);
    expect(matchesOnlyWithHiddenPrice(soldHidden, filters, ctx)).toBe(true);
    expect(matchesOnlyWithHiddenPrice(inRange, filters, ctx)).toBe(false);
    expect(matchesOnlyWithHiddenPrice(outOfRange, filters, ctx)).toBe(false);
    // Without a range criterion, or when the corporate shows every price, nothing is set apart.
    expect(matchesOnlyWithHiddenPrice(soldHidden, emptyUnitFilters(), ctx)).toBe(false);
    expect(
      matchesOnlyWithHiddenPrice(soldHidden, filters, { ...ctx, hideUnavailablePrices: false }),
    ).toBe(false);
    // A hidden-price unit that fails another criterion is not a match at all.
    expect(matchesOnlyWithHiddenPrice(soldHidden, { ...filters, recamaras: [3] }, ctx)).toBe(false);
  });

  it('says when a typed range has letters or its minimum above its maximum', () => {
    expect(rangeProblem('', '')).toBe(null);
    expect(rangeProblem('4,000,000', '$6 000 000')).toBe(null);
    expect(rangeProblem('5', '5')).toBe(null);
    expect(rangeProblem('4M', '')).toBe('notNumber');
    expect(rangeProblem('', 'seis')).toBe('notNumber');
    expect(rangeProblem('6000000', '4000000')).toBe('minOverMax');
  });
});
