/**
 * The built-in assistant's question parser (issue 18 point 3): a table of questions in Spanish
 * and English with the filter each must become, and properties: it never throws, an unknown
 * word never adds a criterion, and adding a constraint never adds units.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerChatQuery,
  CHAT_UNITS_PER_DEVELOPMENT,
  isChatVocabularyWord,
  parseChatQuestion,
  type ChatInventoryDevelopment,
  type ChatQuery,
  type ChatQueryContext,
} from '../../src/core/chat-query';
import { emptyUnitFilters, type UnitFilters } from '../../src/core/filters';
import { defaultStatusColors } from '../../src/core/status';
import { CoreClient } from '../../src/workers/core-client';
import type { Currency, Unit } from '../../src/core/types';

const currencies: Currency[] = [
  { codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 },
  { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 18.5 },
];
const ctx: ChatQueryContext = {
  developments: [
    { id: 'd-alameda', nombre: 'Torre Alameda', nombreCorto: 'Alameda' },
    { id: 'd-olivos', nombre: 'Residencial Los Olivos', nombreCorto: 'Los Olivos' },
    { id: 'd-playa', nombre: 'Playa Azul', nombreCorto: 'Playa Azul' },
  ],
  currencies,
  currency: 'MXN',
  areaUnit: 'm2',
};
const FT = 10.7639;
const ft = (v: number) => Math.round((v / FT) * 100) / 100;

type Expected = Partial<UnitFilters> &
  Partial<Omit<ChatQuery, 'filters'>> & { ctx?: Partial<ChatQueryContext> };

// prettier-ignore
const table: [string, Expected][] = [
  // The issue's own questions.
  ['departamentos de 2 recámaras en Torre Alameda por menos de 5 millones', { tipo: 'departamento', recamaras: [2], desarrollos: ['d-alameda'], precioMax: 5_000_000 }],
  ['¿qué casas tienen 4 cajones?', { tipo: 'casa', cajones: [4] }],
  ['lo más barato con terraza', { orden: 'precio-asc', terraza: true }],
  ['3 bedrooms under 8M USD', { recamaras: [3], precioMax: 8_000_000, divisa: 'USD' }],
  ['¿cuántos disponibles quedan en Playa Azul?', { intencion: 'contar', desarrollos: ['d-playa'] }],
  // Bedrooms and their synonyms, plurals and accents.
  ['2 recamaras', { recamaras: [2] }],
  ['una recámara', { recamaras: [1] }],
  ['dos habitaciones', { recamaras: [2] }],
  ['tres dormitorios', { recamaras: [3] }],
  ['Depa de 3 cuartos', { tipo: 'departamento', recamaras: [3] }],
  ['al menos 2 recámaras', { recamaras: [2, 3, 4] }],
  ['3 recámaras o más', { recamaras: [3, 4] }],
  ['hasta 2 recámaras', { recamaras: [0, 1, 2] }],
  ['entre 2 y 3 recámaras', { recamaras: [2, 3] }],
  ['5 recámaras', { recamaras: [5] }],
  ['cuatro recámaras', { recamaras: [4] }],
  ['estudios en Alameda', { recamaras: [0], desarrollos: ['d-alameda'] }],
  ['2 bedroom apartment', { recamaras: [2], tipo: 'departamento' }],
  ['two beds', { recamaras: [2] }],
  ['at least 3 bedrooms', { recamaras: [3, 4] }],
  ['4+ bedrooms', { recamaras: [4] }],
  ['studio', { recamaras: [0] }],
  // Bathrooms.
  ['2 baños', { banios: [2] }],
  ['2 baños y medio', { banios: [2.5] }],
  ['2.5 baños', { banios: [2.5] }],
  ['un baño', { banios: [1] }],
  ['3 bathrooms', { banios: [3] }],
  ['2 and a half baths', { banios: [2.5] }],
  ['al menos dos baños', { banios: [2, 3, 4] }],
  // Parking.
  ['2 cajones', { cajones: [2] }],
  ['un cajón de estacionamiento', { cajones: [1] }],
  ['2 estacionamientos', { cajones: [2] }],
  ['2 parking spaces', { cajones: [2] }],
  ['casa con 3 lugares de estacionamiento', { tipo: 'casa', cajones: [3] }],
  // Prices, multipliers and currencies.
  ['menos de 5 millones', { precioMax: 5_000_000 }],
  ['por menos de 3.5 mdp', { precioMax: 3_500_000, divisa: 'MXN' }],
  ['hasta 4,500,000 pesos', { precioMax: 4_500_000, divisa: 'MXN' }],
  ['máximo $6,000,000', { precioMax: 6_000_000 }],
  ['más de 10 millones', { precioMin: 10_000_000 }],
  ['desde 3 millones', { precioMin: 3_000_000 }],
  ['entre 2 y 4 millones', { precioMin: 2_000_000, precioMax: 4_000_000 }],
  ['entre 3 millones y 5 millones', { precioMin: 3_000_000, precioMax: 5_000_000 }],
  ['under 500k', { precioMax: 500_000 }],
  ['less than 300k dollars', { precioMax: 300_000, divisa: 'USD' }],
  ['over 1 million usd', { precioMin: 1_000_000, divisa: 'USD' }],
  ['between 200k and 400k', { precioMin: 200_000, precioMax: 400_000 }],
  ['menos de un millón de dólares', { precioMax: 1_000_000, divisa: 'USD' }],
  ['cinco millones', { precioMax: 5_000_000 }],
  ['3,5 millones', { precioMax: 3_500_000 }],
  ['hasta 800 mil', { precioMax: 800_000 }],
  ['menos de 2 millones de euros', { precioMax: 2_000_000, ctx: {} }],
  ['under 8M', { precioMax: 8_000_000, divisa: 'USD', ctx: { currency: 'USD' } }],
  // Areas.
  ['más de 80 m2', { areaMin: 80 }],
  ['menos de 120 m²', { areaMax: 120 }],
  ['100 metros cuadrados', { areaMin: 100 }],
  ['al menos 90 mts', { areaMin: 90 }],
  ['over 1000 sq ft', { areaMin: ft(1000) }],
  ['under 1500 ft2', { areaMax: ft(1500) }],
  ['between 80 and 120 m2', { areaMin: 80, areaMax: 120 }],
  ['superficie de más de 1000', { areaMin: ft(1000), ctx: { areaUnit: 'ft2' } }],
  ['superficie mínima 90', { areaMin: 90 }],
  // Kinds, features, orders, intent.
  ['casas en Los Olivos', { tipo: 'casa', desarrollos: ['d-olivos'] }],
  ['houses', { tipo: 'casa' }],
  ['depas con terraza', { tipo: 'departamento', terraza: true }],
  ['apartments with a terrace', { tipo: 'departamento', terraza: true }],
  ['con roof garden', { roofGarden: true }],
  ['el más caro de Playa Azul', { orden: 'precio-desc', desarrollos: ['d-playa'] }],
  ['the cheapest in Alameda', { orden: 'precio-asc', desarrollos: ['d-alameda'] }],
  ['lo más grande', { orden: 'area-desc' }],
  ['the smallest unit', { orden: 'area-asc' }],
  ['how many units are left in Los Olivos?', { intencion: 'contar', desarrollos: ['d-olivos'] }],
  ['¿Cuántas casas hay?', { intencion: 'contar', tipo: 'casa' }],
  ['TORRE ALAMEDA', { desarrollos: ['d-alameda'] }],
  ['alameda y playa azul', { desarrollos: ['d-alameda', 'd-playa'] }],
  // Combined.
  ['3 recámaras, 2 baños y 2 cajones en Playa Azul por menos de 9 millones', { recamaras: [3], banios: [2], cajones: [2], desarrollos: ['d-playa'], precioMax: 9_000_000 }],
  ['2 bedrooms 2 baths under 400k usd with terrace', { recamaras: [2], banios: [2], precioMax: 400_000, divisa: 'USD', terraza: true }],
  ['casa de 4 recámaras entre 6 y 8 millones', { tipo: 'casa', recamaras: [4], precioMin: 6_000_000, precioMax: 8_000_000 }],
  // Not understood: nothing added.
  ['hola', { entendida: false }],
  ['¿tienen alberca?', { entendida: false }],
  ['', { entendida: false }],
  ['5', { entendida: false }],
  ['what is the weather like', { entendida: false }],
];

function expectedQuery(e: Expected): ChatQuery {
  const {
    ctx: _c,
    recamaras,
    banios,
    cajones,
    precioMin,
    precioMax,
    areaMin,
    areaMax,
    ...rest
  } = e;
  const filters: UnitFilters = {
    ...emptyUnitFilters(),
    ...(recamaras ? { recamaras } : {}),
    ...(banios ? { banios } : {}),
    ...(cajones ? { cajones } : {}),
    ...(precioMin !== undefined ? { precioMin } : {}),
    ...(precioMax !== undefined ? { precioMax } : {}),
    ...(areaMin !== undefined ? { areaMin } : {}),
    ...(areaMax !== undefined ? { areaMax } : {}),
  };
  return {
    desarrollos: [],
    intencion: 'listar',
    divisa: e.ctx?.currency ?? 'MXN',
    entendida: true,
    ...rest,
    filters,
  };
}

describe('parseChatQuestion: the table', () => {
  it('has at least 60 questions', () => expect(table.length).toBeGreaterThanOrEqual(60));
  it.each(table)('%s', (question, expected) => {
    const got = parseChatQuestion(question, { ...ctx, ...expected.ctx });
    expect(got).toEqual(expectedQuery(expected));
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const PHRASES: Record<string, string[]> = {
  recamaras: ['2 recámaras', '3 bedrooms', 'al menos 2 habitaciones', 'una recámara'],
  banios: ['2 baños', '1 bathroom', '2 baños y medio'],
  cajones: ['2 cajones', '1 estacionamiento', 'one parking space'],
  precio: ['menos de 5 millones', 'under 300k usd', 'más de 3 mdp', 'entre 2 y 6 millones'],
  area: ['más de 80 m2', 'menos de 120 m²', 'over 900 sq ft'],
  desarrollo: ['en Torre Alameda', 'in Playa Azul', 'Los Olivos'],
  tipo: ['casas', 'departamentos', 'depa'],
  terraza: ['con terraza', 'with a terrace'],
};
const kinds = Object.keys(PHRASES);

const unitArb: fc.Arbitrary<Unit> = fc.record({
  id: fc.uuid(),
  idDesarrollo: fc.constant('x'),
  idCluster: fc.constant('c'),
  idPrototipo: fc.constantFrom('p1', 'p2'),
  nombre: fc.string({ maxLength: 4 }),
  nivel: fc.integer({ min: 1, max: 20 }),
  posicion: fc.integer({ min: 1, max: 8 }),
  status: fc.constantFrom('Disponible', undefined),
  precio: fc.integer({ min: 500_000, max: 20_000_000 }),
  divisa: fc.constantFrom('MXN', 'USD'),
  caracteristicas: fc.record({
    recamaras: fc.integer({ min: 0, max: 5 }),
    banios: fc.integer({ min: 1, max: 4 }),
    baniosMedios: fc.integer({ min: 0, max: 1 }),
    cajones: fc.integer({ min: 0, max: 4 }),
  }),
  metrajes: fc.record({
    areaTotal: fc.integer({ min: 30, max: 400 }),
    terraza: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
  }),
  categoria: fc.constantFrom('Departamento', 'Casa'),
});

const inventoryArb: fc.Arbitrary<ChatInventoryDevelopment[]> = fc
  .tuple(...ctx.developments.map(() => fc.array(unitArb, { maxLength: 12 })))
  .map((lists) =>
    lists.map((units, i) => {
      const d = ctx.developments[i]!;
      return {
        id: d.id,
        slug: d.id,
        nombre: d.nombre,
        tipos: i === 1 ? ['casa' as const] : [],
        filterContext: { statusColors: defaultStatusColors(), hideUnavailablePrices: false },
        units: units.map((u) => ({ ...u, idDesarrollo: d.id })),
      };
    }),
  );

const allIds = (q: ChatQuery, inv: ChatInventoryDevelopment[]) => {
  // The whole match set, not the first 3 of each development.
  const set = new Set<string>();
  for (const dev of inv) {
    for (const u of dev.units) {
      const one = answerChatQuery(q, [{ ...dev, units: [u] }], currencies);
      if (one.total > 0) set.add(u.id);
    }
  }
  return set;
};

// Generous time limits: the properties run hundreds of cases on a machine other suites share.
describe('parseChatQuestion: properties', { timeout: 30_000 }, () => {
  it('never throws, and always answers a well-formed query', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ unit: 'binary', maxLength: 60 }),
        (a, b) => {
          const q = parseChatQuestion(`${a} ${b}`, ctx);
          expect(Array.isArray(q.filters.recamaras)).toBe(true);
          expect(['MXN', 'USD']).toContain(q.divisa);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never throws on any mix of its own words and numbers', () => {
    const words = [
      'de',
      'y',
      'entre',
      'and',
      'a',
      'half',
      'medio',
      'menos',
      'mas',
      'hasta',
      'under',
      'millones',
      'k',
      'm',
      'mdp',
      'usd',
      '$',
      'm2',
      'ft2',
      'sq',
      'ft',
      'recamaras',
      'banos',
      'cajones',
      'o',
      'more',
      'superficie',
      'terraza',
      'casa',
      'cuantos',
      'alameda',
      '0',
      '4',
      '2.5',
      '1,000',
      '999999999999999999999',
      'nan',
      'infinity',
      '-3',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 14 }), (ws) => {
        const q = parseChatQuestion(ws.join(' '), ctx);
        for (const v of [...q.filters.recamaras, ...q.filters.banios, ...q.filters.cajones]) {
          expect(Number.isFinite(v) && v >= 0).toBe(true);
        }
        for (const v of [
          q.filters.precioMin,
          q.filters.precioMax,
          q.filters.areaMin,
          q.filters.areaMax,
        ]) {
          if (v !== undefined) expect(Number.isFinite(v)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('an unknown word never adds a criterion', () => {
    const word = fc.stringMatching(/^[a-zñ]{2,12}$/).filter((w) => !isChatVocabularyWord(w));
    const question = fc
      .subarray(kinds, { minLength: 0, maxLength: 4 })
      .chain((ks) => fc.tuple(...ks.map((k) => fc.constantFrom(...PHRASES[k]!))))
      .map((parts) => parts.join(' y '));
    fc.assert(
      fc.property(question, word, fc.boolean(), (q, w, front) => {
        const base = parseChatQuestion(q, ctx);
        const withWord = parseChatQuestion(front ? `${w} ${q}` : `${q} ${w}`, ctx);
        expect(withWord).toEqual(base);
      }),
      { numRuns: 300 },
    );
  });

  it('adding a constraint never adds units', () => {
    const split = fc
      .shuffledSubarray(kinds, { minLength: 1, maxLength: 5 })
      .chain(([added, ...present]) =>
        fc.tuple(
          fc.tuple(...present.map((k) => fc.constantFrom(...PHRASES[k]!))),
          fc.constantFrom(...PHRASES[added!]!),
        ),
      );
    fc.assert(
      fc.property(split, inventoryArb, ([present, added], inv) => {
        const q = present.join(' y ');
        const before = allIds(parseChatQuestion(q, ctx), inv);
        const after = allIds(parseChatQuestion(`${q} y ${added}`, ctx), inv);
        for (const id of after) expect(before.has(id)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('answers at most 3 units per development, counting them all', () => {
    fc.assert(
      fc.property(inventoryArb, (inv) => {
        const a = answerChatQuery(parseChatQuestion('', ctx), inv, currencies);
        for (const d of a.desarrollos) {
          expect(d.unidades.length).toBeLessThanOrEqual(CHAT_UNITS_PER_DEVELOPMENT);
          expect(d.unidades.length).toBe(Math.min(3, d.total));
        }
        expect(a.total).toBe(inv.reduce((n, d) => n + d.units.length, 0));
      }),
    );
  });
});

describe('answerChatQuery', () => {
  const unit = (over: Partial<Unit>): Unit => ({
    id: 'u',
    idDesarrollo: 'd-alameda',
    idCluster: 'c',
    idPrototipo: 'p',
    nombre: 'A101',
    nivel: 1,
    posicion: 1,
    status: 'Disponible',
    precio: 4_000_000,
    divisa: 'MXN',
    caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
    metrajes: { areaTotal: 80 },
    ...over,
  });
  const dev = (units: ChatInventoryDevelopment['units']): ChatInventoryDevelopment => ({
    id: 'd-alameda',
    slug: 'torre-alameda',
    nombre: 'Torre Alameda',
    tipos: ['departamento'],
    filterContext: { statusColors: defaultStatusColors(), hideUnavailablePrices: true },
    units,
  });

  it('converts the asked currency to each unit’s own', () => {
    const units = [
      unit({ id: 'a', precio: 300_000, divisa: 'USD' }),
      unit({ id: 'b', precio: 6_000_000 }),
    ];
    // 300k USD is 5.55 M MXN: under 6 M MXN; the MXN unit is not under 320k USD (5.92 M MXN).
    const a = answerChatQuery(parseChatQuestion('under 320k usd', ctx), [dev(units)], currencies);
    expect(a.desarrollos[0]!.unidades.map((u) => u.id)).toEqual(['a']);
  });

  it('a hidden price answers no price question and sorts nowhere', () => {
    const { precio: _p, ...hidden } = unit({ id: 'h', precio: 1 });
    const units = [hidden, unit({ id: 'v', precio: 3_000_000 })];
    for (const question of ['menos de 5 millones', 'más de 100 mil', 'lo más barato']) {
      const a = answerChatQuery(parseChatQuestion(question, ctx), [dev(units)], currencies);
      expect(a.desarrollos[0]!.unidades.map((u) => u.id)).toEqual(['v']);
    }
    // Without a price criterion the unit is listed (without its price).
    const all = answerChatQuery(parseChatQuestion('2 recámaras', ctx), [dev(units)], currencies);
    expect(all.total).toBe(2);
  });

  it('orders by price and keeps 3 per development', () => {
    const units = [5, 2, 9, 4, 7].map((m, i) => unit({ id: `u${i}`, precio: m * 1_000_000 }));
    const a = answerChatQuery(parseChatQuestion('lo más barato', ctx), [dev(units)], currencies);
    expect(a.total).toBe(5);
    expect(a.desarrollos[0]!.unidades.map((u) => u.precio)).toEqual([2e6, 4e6, 5e6]);
  });

  it('house or flat by the development’s categories, terrace by its area', () => {
    const units = [unit({ id: 't', metrajes: { areaTotal: 90, terraza: 12 } }), unit({ id: 'n' })];
    expect(answerChatQuery(parseChatQuestion('casas', ctx), [dev(units)], currencies).total).toBe(
      0,
    );
    const t = answerChatQuery(
      parseChatQuestion('depas con terraza', ctx),
      [dev(units)],
      currencies,
    );
    expect(t.desarrollos[0]!.unidades.map((u) => u.id)).toEqual(['t']);
  });
});

describe('the core worker', () => {
  it('reads a question as the core does (the client in direct mode, as where no Worker exists)', async () => {
    const client = new CoreClient({ forceDirect: true });
    const question = 'departamentos de 2 recámaras en Torre Alameda por menos de 5 millones';
    await expect(client.parseChatQuestion(question, ctx)).resolves.toEqual(
      parseChatQuestion(question, ctx),
    );
  });
});
