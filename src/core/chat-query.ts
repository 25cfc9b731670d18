/**
 * The built-in inventory assistant (issue 18 point 3): a question in Spanish or English becomes
 * the availability page's unit filter ({@link UnitFilters}, core/filters.ts) plus the few things
 * a question adds (developments named, house or flat, terrace, an order, "how many"), and
 * {@link answerChatQuery} runs it over the units the caller may see.
 *
 * Pure: no I/O, no clock. Spanish is normalised (accents, plurals, synonyms such as recámara /
 * habitación / dormitorio, cajón / estacionamiento, depa / departamento), numbers may be words
 * ("dos", "three") and amounts carry "mdp", "millones", "k", "M" and a currency. An amount with no
 * currency is in the user's chosen currency and an area with no unit in the user's area unit.
 * Words the parser does not know never add a criterion.
 */

import { areaIn, squareFeetToArea, type AreaUnit } from './area';
import { convert, currencyCode, DEFAULT_CURRENCY, findCurrency } from './currency';
import { emptyUnitFilters, OR_MORE_VALUE, unitMatchesFilters, type FilterContext } from './filters';
import type { UnitFilters } from './filters';
import type { Currency, Unit } from './types';
import type { UnitView } from './visibility';

/** Units per development in an answer (spec §9: the chat sends 3 units per development). */
export const CHAT_UNITS_PER_DEVELOPMENT = 3;

/** Longest question the assistant (and the webhook) is sent, in characters. */
export const CHAT_MESSAGE_MAX = 500;

/** The kind of home a question asks for. */
export type ChatHomeKind = 'departamento' | 'casa';

/** An order a question asks for ("lo más barato", "the largest"). */
export type ChatOrder = 'precio-asc' | 'precio-desc' | 'area-desc' | 'area-asc';

/** A development the parser can recognise by name. */
export interface ChatDevelopmentName {
  id: string;
  nombre: string;
  nombreCorto?: string;
}

/** What the parser needs to know about the corporate and the user's settings. */
export interface ChatQueryContext {
  developments: readonly ChatDevelopmentName[];
  /** The corporate's currencies (the codes an amount may name). */
  currencies: readonly Currency[];
  /** The user's chosen currency: amounts that name none are in it. */
  currency: string;
  /** The user's area unit: areas that name none are in it. */
  areaUnit: AreaUnit;
}

/** A question as the assistant understood it. */
export interface ChatQuery {
  /** The availability page's filter; prices in {@link ChatQuery.divisa}, areas in m². */
  filters: UnitFilters;
  /** The currency of the price bounds. */
  divisa: string;
  /** Ids of the developments the question names (empty: every development). */
  desarrollos: string[];
  tipo?: ChatHomeKind;
  terraza?: boolean;
  roofGarden?: boolean;
  orden?: ChatOrder;
  /** `contar`: the question asks how many ("¿cuántos quedan?"). */
  intencion: 'listar' | 'contar';
  /** Whether any word of the question meant something to the parser. */
  entendida: boolean;
}

// ---------------------------------------------------------------------------------------------
// Normalisation

/** Lower case, no accents (NFKD also turns ² into 2), punctuation to spaces, digits apart. */
export function normalizeChatText(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/\$/g, ' $ ')
      // Keep decimal and thousands separators between digits only.
      .replace(/[^a-z0-9.,$ ]|(?<!\d)[.,]|[.,](?!\d)/g, ' ')
      .replace(/(\d)([a-z])/g, '$1 $2')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  cero: 0,
  un: 1,
  una: 1,
  uno: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  once: 11,
  doce: 12,
  quince: 15,
  veinte: 20,
  cien: 100,
  zero: 0,
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  hundred: 100,
};

type Noun = 'recamaras' | 'banios' | 'cajones';

const COUNT_NOUNS: Readonly<Record<string, Noun>> = {
  recamara: 'recamaras',
  rec: 'recamaras',
  recs: 'recamaras',
  habitacion: 'recamaras',
  dormitorio: 'recamaras',
  cuarto: 'recamaras',
  alcoba: 'recamaras',
  bedroom: 'recamaras',
  bed: 'recamaras',
  br: 'recamaras',
  room: 'recamaras',
  bano: 'banios',
  banio: 'banios',
  bath: 'banios',
  bathroom: 'banios',
  ba: 'banios',
  cajon: 'cajones',
  estacionamiento: 'cajones',
  parking: 'cajones',
  garage: 'cajones',
  garaje: 'cajones',
  lugar: 'cajones',
  space: 'cajones',
  spot: 'cajones',
  car: 'cajones',
  auto: 'cajones',
  coche: 'cajones',
};

const MULTIPLIERS: Readonly<Record<string, number>> = {
  millon: 1_000_000,
  millone: 1_000_000,
  mdp: 1_000_000,
  mm: 1_000_000,
  m: 1_000_000,
  mill: 1_000_000,
  million: 1_000_000,
  mil: 1_000,
  k: 1_000,
  thousand: 1_000,
};

const CURRENCY_WORDS: Readonly<Record<string, string>> = {
  mxn: 'MXN',
  peso: 'MXN',
  mdp: 'MXN',
  mn: 'MXN',
  usd: 'USD',
  dolar: 'USD',
  dollar: 'USD',
  dl: 'USD',
  dls: 'USD',
  us: 'USD',
  eur: 'EUR',
  euro: 'EUR',
};

const AREA_WORDS: Readonly<Record<string, AreaUnit>> = {
  m2: 'm2',
  mt2: 'm2',
  mts2: 'm2',
  mts: 'm2',
  mt: 'm2',
  metro: 'm2',
  sqm: 'm2',
  ft2: 'ft2',
  sqft: 'ft2',
  ft: 'ft2',
  pie: 'ft2',
  feet: 'ft2',
  foot: 'ft2',
};

const HOME_KINDS: Readonly<Record<string, ChatHomeKind>> = {
  departamento: 'departamento',
  depa: 'departamento',
  depto: 'departamento',
  dpto: 'departamento',
  apartamento: 'departamento',
  apartment: 'departamento',
  apt: 'departamento',
  condo: 'departamento',
  flat: 'departamento',
  casa: 'casa',
  house: 'casa',
  home: 'casa',
  townhouse: 'casa',
};

/** Words that ask for every listed unit without adding a criterion. */
const PLAIN_WORDS = new Set([
  'disponible',
  'available',
  'unidad',
  'unit',
  'inventario',
  'inventory',
  'propiedad',
  'property',
  'vivienda',
  'quedan',
  'left',
]);

type Bound = 'max' | 'min';

/** Phrases before a number that make it an upper or lower bound (already normalised). */
const BOUND_PHRASES: readonly (readonly [readonly string[], Bound])[] = [
  [['por', 'menos', 'de'], 'max'],
  [['menos', 'de'], 'max'],
  [['no', 'mas', 'de'], 'max'],
  [['maximo', 'de'], 'max'],
  [['maximo'], 'max'],
  [['max'], 'max'],
  [['hasta'], 'max'],
  [['debajo', 'de'], 'max'],
  [['bajo'], 'max'],
  [['under'], 'max'],
  [['below'], 'max'],
  [['less', 'than'], 'max'],
  [['up', 'to'], 'max'],
  [['at', 'most'], 'max'],
  [['no', 'more', 'than'], 'max'],
  [['mas', 'de'], 'min'],
  [['arriba', 'de'], 'min'],
  [['encima', 'de'], 'min'],
  [['al', 'menos'], 'min'],
  [['por', 'lo', 'menos'], 'min'],
  [['minimo', 'de'], 'min'],
  [['minimo'], 'min'],
  [['min'], 'min'],
  [['desde'], 'min'],
  [['over'], 'min'],
  [['above'], 'min'],
  [['more', 'than'], 'min'],
  [['at', 'least'], 'min'],
  [['from'], 'min'],
];

const ORDER_PHRASES: readonly (readonly [RegExp, ChatOrder])[] = [
  [
    /\b(mas|muy) (barat|economic)|\bmenor precio\b|\bcheapest\b|\blowest price\b|\bleast expensive\b/,
    'precio-asc',
  ],
  [
    /\bmas car[oa]s?\b|\bmayor precio\b|\bmost expensive\b|\bpriciest\b|\bhighest price\b/,
    'precio-desc',
  ],
  [
    /\bmas (grande|amplio|amplia|espacioso|espaciosa)s?\b|\blargest\b|\bbiggest\b|\bmost spacious\b/,
    'area-desc',
  ],
  [/\bmas (pequen|chic)[oa]s?\b|\bsmallest\b/, 'area-asc'],
];

const COUNT_INTENT = /\b(cuant[oa]s|how many|cantidad de|number of)\b/;

/** The singular of a normalised word for vocabulary lookup ("recamaras" → "recamara"). */
function singular(word: string): string[] {
  const out = [word];
  if (word.length > 3 && word.endsWith('es')) out.push(word.slice(0, -2));
  if (word.length > 2 && word.endsWith('s')) out.push(word.slice(0, -1));
  return out;
}

function lookup<T>(table: Readonly<Record<string, T>>, word: string | undefined): T | undefined {
  if (word === undefined) return undefined;
  for (const w of singular(word)) if (Object.hasOwn(table, w)) return table[w];
  return undefined;
}

const FILLER = new Set(['de', 'of', 'con', 'with', 'y', 'and', 'o', 'or', 'a']);

/** Words with a meaning to the parser (for tests: any other word is unknown). */
export function isChatVocabularyWord(word: string): boolean {
  const w = normalizeChatText(word);
  if (w === '' || /\d/.test(w)) return true;
  const tables: Readonly<Record<string, unknown>>[] = [
    NUMBER_WORDS,
    COUNT_NOUNS,
    MULTIPLIERS,
    CURRENCY_WORDS,
    AREA_WORDS,
    HOME_KINDS,
  ];
  if (tables.some((t) => lookup(t, w) !== undefined)) return true;
  if (singular(w).some((s) => PLAIN_WORDS.has(s) || FILLER.has(s))) return true;
  if (BOUND_PHRASES.some(([p]) => p.includes(w))) return true;
  return /^(medio|half|terraz|terrace|roof|garden|azotea|cuadrad|square|sq|en|in|at|mas|more|menos|less|cuant|how|many|most|lowest|highest|cheap|barat|car|grand|larg|big|pequen|chic|small|mayor|menor|precio|price|expensive|economic|amplio|amplia|espacios|spacious|estudio|studio|mucho|muy|lo|the|y|o|or|and)/.test(
    w,
  );
}

/** A number token ("5", "3.5", "4,500,000", "3,5") or a number word; `undefined` otherwise. */
function numberValue(token: string | undefined): number | undefined {
  if (token === undefined) return undefined;
  if (Object.hasOwn(NUMBER_WORDS, token)) return NUMBER_WORDS[token];
  if (!/^\d[\d.,]*$/.test(token)) return undefined;
  // "4,500,000" and "4.500.000": thousands; "3,5" and "3.5": decimals.
  const grouped = /^\d{1,3}([.,]\d{3})+$/.test(token);
  const value = grouped ? Number(token.replace(/[.,]/g, '')) : Number(token.replace(',', '.'));
  return Number.isFinite(value) ? value : undefined;
}

function boundBefore(tokens: readonly string[], at: number): Bound | undefined {
  for (const [phrase, bound] of BOUND_PHRASES) {
    const start = at - phrase.length;
    if (start < 0) continue;
    if (phrase.every((w, i) => tokens[start + i] === w)) return bound;
  }
  return undefined;
}

function orMoreAfter(tokens: readonly string[], at: number): boolean {
  const a = tokens[at];
  const b = tokens[at + 1];
  return (a === 'o' && (b === 'mas' || b === 'mayor')) || (a === 'or' && b === 'more') || a === '+';
}

interface Parsed {
  counts: Record<Noun, number[]>;
  countBounds: Partial<Record<Noun, Bound>>;
  precio: { min?: number; max?: number };
  area: { min?: number; max?: number };
  divisa?: string;
}

function tighten(range: { min?: number; max?: number }, bound: Bound, value: number) {
  if (bound === 'max') range.max = range.max === undefined ? value : Math.min(range.max, value);
  else range.min = range.min === undefined ? value : Math.max(range.min, value);
}

/** Every count from `n` up to the "4 or more" value. */
function orMore(n: number): number[] {
  if (n >= OR_MORE_VALUE) return [OR_MORE_VALUE];
  const out: number[] = [];
  for (let v = Math.max(0, n); v <= OR_MORE_VALUE; v++) out.push(v);
  return out;
}

function addCount(p: Parsed, noun: Noun, values: readonly number[]) {
  const list = p.counts[noun];
  for (const v of values) if (!list.includes(v)) list.push(v);
  list.sort((a, b) => a - b);
}

/** Reads the question into the assistant's query. Never throws. */
export function parseChatQuestion(question: string, ctx: ChatQueryContext): ChatQuery {
  const text = normalizeChatText(question.slice(0, CHAT_MESSAGE_MAX * 2))
    .replace(/\b(square (feet|foot)|sq ft|pies? cuadrados?)\b/g, 'ft2')
    .replace(/\b(square (meters?|metres?)|sq m|metros? cuadrados?)\b/g, 'm2');
  const tokens = text === '' ? [] : text.split(' ');
  const userCurrency =
    findCurrency(ctx.currencies, ctx.currency)?.codigo ?? DEFAULT_CURRENCY.codigo;
  const p: Parsed = {
    counts: { recamaras: [], banios: [], cajones: [] },
    countBounds: {},
    precio: {},
    area: {},
  };
  let understood = false;
  const query: Omit<ChatQuery, 'filters' | 'divisa' | 'entendida'> = {
    desarrollos: [],
    intencion: COUNT_INTENT.test(text) ? 'contar' : 'listar',
  };
  if (query.intencion === 'contar') understood = true;
  for (const [pattern, order] of ORDER_PHRASES) {
    if (pattern.test(text)) {
      query.orden ??= order;
      understood = true;
    }
  }

  // Developments by name (longest names first, so "Torre Alameda" wins over "Alameda").
  const padded = ` ${text} `;
  for (const d of ctx.developments) {
    const names = [d.nombre, d.nombreCorto ?? '']
      .map(normalizeChatText)
      .filter((n) => n.length >= 3);
    if (names.some((n) => padded.includes(` ${n} `))) {
      if (!query.desarrollos.includes(d.id)) query.desarrollos.push(d.id);
      understood = true;
    }
  }

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const kind = lookup(HOME_KINDS, token);
    if (kind) {
      query.tipo ??= kind;
      understood = true;
      continue;
    }
    if (/^terra(z|c)/.test(token)) {
      query.terraza = true;
      understood = true;
      continue;
    }
    if (token === 'roofgarden' || (token === 'roof' && tokens[i + 1]?.startsWith('garden'))) {
      query.roofGarden = true;
      understood = true;
      continue;
    }
    if (lookup({ estudio: 1, studio: 1 }, token) !== undefined) {
      addCount(p, 'recamaras', [0]);
      understood = true;
      continue;
    }
    if (singular(token).some((s) => PLAIN_WORDS.has(s))) {
      understood = true;
      continue;
    }
    const number = numberValue(token);
    if (number === undefined) continue;
    if (readAmount(tokens, i, number, p, ctx.areaUnit)) understood = true;
  }
  readBetween(tokens, p);

  const filters: UnitFilters = emptyUnitFilters();
  filters.recamaras = p.counts.recamaras;
  filters.banios = p.counts.banios;
  filters.cajones = p.counts.cajones;
  const divisa = p.divisa && findCurrency(ctx.currencies, p.divisa) ? p.divisa : userCurrency;
  if (p.precio.min !== undefined) filters.precioMin = p.precio.min;
  if (p.precio.max !== undefined) filters.precioMax = p.precio.max;
  if (p.area.min !== undefined) filters.areaMin = round2(p.area.min);
  if (p.area.max !== undefined) filters.areaMax = round2(p.area.max);
  return { ...query, filters, divisa: currencyCode(divisa), entendida: understood };
}

/** Words that may stand between a number and the noun it counts. */
const NOUN_ADJECTIVES = new Set([
  'full',
  'car',
  'completo',
  'completos',
  'private',
  'privado',
  'privados',
]);

/** Words before a bare number that make it an area in the user's unit ("superficie de 90"). */
const AREA_CUES = new Set(['superficie', 'area', 'size', 'tamano', 'construccion', 'metraje']);

/**
 * Reads the number at `i` with what follows it (half, multiplier, currency, a counted noun or an
 * area unit) and what precedes it (a bound, "$", an area cue) into `p`. Whether it meant
 * something.
 */
function readAmount(
  tokens: readonly string[],
  i: number,
  number: number,
  p: Parsed,
  areaUnit: AreaUnit,
): boolean {
  let value = number;
  const dollarBefore = tokens[i - 1] === '$';
  const before = dollarBefore ? i - 1 : i;
  let bound = boundBefore(tokens, before);
  // The first number of "entre 2 y 4 …" is a lower bound (readBetween adds the upper one).
  if (tokens[before - 1] === 'entre' || tokens[before - 1] === 'between') bound = 'min';
  let j = i + 1;
  // "2 baños y medio" / "2 and a half baths".
  if (tokens[j] === 'y' && tokens[j + 1] === 'medio') {
    value += 0.5;
    j += 2;
  } else if (tokens[j] === 'and' && tokens[j + 1] === 'a' && tokens[j + 2] === 'half') {
    value += 0.5;
    j += 3;
  }
  while (tokens[j] === 'de' || tokens[j] === 'of') j++;
  const multiplier = lookup(MULTIPLIERS, tokens[j]);
  let currency = lookup(CURRENCY_WORDS, tokens[j]);
  if (multiplier !== undefined) {
    j++;
    while (tokens[j] === 'de' || tokens[j] === 'of') j++;
    const after = lookup(CURRENCY_WORDS, tokens[j]);
    if (after !== undefined) {
      currency ??= after;
      j++;
    }
  } else if (currency !== undefined) {
    j++;
  }
  const areaWord = lookup(AREA_WORDS, tokens[j]);
  // "2 full baths", "2 car garage": one describing word may stand between.
  const nounAt = tokens[j] !== undefined && NOUN_ADJECTIVES.has(tokens[j]!) ? j + 1 : j;
  const noun = lookup(COUNT_NOUNS, tokens[nounAt]);
  // "2 baños y medio".
  if (noun === 'banios' && tokens[nounAt + 1] === 'y' && tokens[nounAt + 2] === 'medio') {
    value += 0.5;
  }
  const areaCue = [1, 2, 3, 4, 5].some((k) => {
    const t = tokens[before - k];
    return t !== undefined && AREA_CUES.has(t);
  });

  if (areaWord !== undefined && multiplier === undefined && currency === undefined) {
    tighten(p.area, bound ?? 'min', areaWord === 'ft2' ? squareFeetToArea(value) : value);
    return true;
  }
  if (multiplier !== undefined || currency !== undefined || dollarBefore || value >= 10_000) {
    if (currency !== undefined) p.divisa ??= currency;
    tighten(p.precio, bound ?? 'max', value * (multiplier ?? 1));
    return true;
  }
  if (noun !== undefined) {
    // Counts are whole (bathrooms may be halves) and small.
    if (!Number.isInteger(value * 2) || value > 50) return false;
    let values: number[];
    if (bound === 'min' || orMoreAfter(tokens, nounAt + 1)) values = orMore(Math.ceil(value));
    else if (bound === 'max') values = Array.from({ length: Math.floor(value) + 1 }, (_, k) => k);
    else values = [value];
    addCount(p, noun, values);
    return true;
  }
  if (areaCue) {
    tighten(p.area, bound ?? 'min', areaUnit === 'ft2' ? squareFeetToArea(value) : value);
    return true;
  }
  return false;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * "entre 2 y 4 millones", "between 3 and 5 bedrooms": the first number was read as a lower
 * bound; the number after "y"/"and" is the upper bound of the same kind, and takes the first's
 * multiplier when it has none of its own ("entre 2 y 4 millones" is millions on both sides).
 */
function readBetween(tokens: readonly string[], p: Parsed) {
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] !== 'entre' && tokens[i] !== 'between') continue;
    let a = i + 1;
    if (tokens[a] === '$') a++;
    const first = numberValue(tokens[a]);
    if (first === undefined) continue;
    let k = a + 1;
    const firstMultiplier = lookup(MULTIPLIERS, tokens[k]);
    if (firstMultiplier !== undefined) k++;
    if (tokens[k] !== 'y' && tokens[k] !== 'and') continue;
    k++;
    if (tokens[k] === '$') k++;
    const second = numberValue(tokens[k]);
    if (second === undefined) continue;
    const secondMultiplier = lookup(MULTIPLIERS, tokens[k + 1]);
    const multiplier = secondMultiplier ?? firstMultiplier;
    const afterSecond = tokens.slice(k + 1, k + 4);
    const noun = afterSecond.map((t) => lookup(COUNT_NOUNS, t)).find((n) => n !== undefined);
    const area = afterSecond.map((t) => lookup(AREA_WORDS, t)).find((n) => n !== undefined);
    if (
      multiplier !== undefined ||
      (noun === undefined && area === undefined && second >= 10_000)
    ) {
      const m = multiplier ?? 1;
      const lo = first * (firstMultiplier ?? m);
      const hi = second * m;
      p.precio.min = Math.max(p.precio.min ?? -Infinity, Math.min(lo, hi));
      p.precio.max = Math.min(p.precio.max ?? Infinity, Math.max(lo, hi));
      const currency = afterSecond.map((t) => lookup(CURRENCY_WORDS, t)).find((c) => c);
      if (currency) p.divisa ??= currency;
    } else if (area !== undefined) {
      const toM2 = (v: number) => (area === 'ft2' ? squareFeetToArea(v) : v);
      p.area.min = toM2(Math.min(first, second));
      p.area.max = toM2(Math.max(first, second));
    } else if (noun !== undefined) {
      const lo = Math.min(first, second);
      const hi = Math.max(first, second);
      const values: number[] = [];
      for (let v = Math.ceil(lo); v <= Math.min(hi, OR_MORE_VALUE); v++) values.push(v);
      p.counts[noun] = values;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Answering

/** One development's units as the caller may see them, with what the answer needs to know. */
export interface ChatInventoryDevelopment {
  id: string;
  slug: string;
  nombre: string;
  /** What the development sells, from its search categories (empty: read each unit's categoria). */
  tipos: readonly ChatHomeKind[];
  /** The development's filter context (core/filters.ts `filterContextFor`). */
  filterContext: FilterContext;
  /** Units the caller may see, as they may see them (a hidden price is absent). */
  units: readonly UnitView[];
}

/** One development's part of an answer: how many matched, and the first few. */
export interface ChatAnswerDevelopment {
  id: string;
  slug: string;
  nombre: string;
  total: number;
  /** At most {@link CHAT_UNITS_PER_DEVELOPMENT}, in the order asked for. */
  unidades: UnitView[];
}

/** The units that answer a query. */
export interface ChatAnswer {
  total: number;
  desarrollos: ChatAnswerDevelopment[];
}

/** The kind of home a search category or a unit's `categoria` names, if any. */
export function homeKindOf(name: string | undefined): ChatHomeKind | undefined {
  if (!name) return undefined;
  for (const word of normalizeChatText(name).split(' ')) {
    const kind = lookup(HOME_KINDS, word);
    if (kind) return kind;
  }
  return undefined;
}

function hasPriceCriterion(q: ChatQuery): boolean {
  return (
    q.filters.precioMin !== undefined ||
    q.filters.precioMax !== undefined ||
    q.orden === 'precio-asc' ||
    q.orden === 'precio-desc'
  );
}

/** A unit's price in `divisa` (`undefined`: hidden from the caller, or no usable rate). */
function priceIn(
  unit: UnitView,
  divisa: string,
  currencies: readonly Currency[],
): number | undefined {
  if (typeof unit.precio !== 'number') return undefined;
  const from = findCurrency(currencies, unit.divisa ?? DEFAULT_CURRENCY.codigo);
  const to = findCurrency(currencies, divisa);
  if (!from || !to) return undefined;
  return convert(unit.precio, from, to);
}

function matches(
  unit: UnitView,
  dev: ChatInventoryDevelopment,
  q: ChatQuery,
  currencies: readonly Currency[],
): boolean {
  if (q.tipo) {
    const kinds = dev.tipos.length > 0 ? dev.tipos : [homeKindOf(unit.categoria)];
    if (!kinds.includes(q.tipo)) return false;
  }
  if (q.terraza && !((unit.metrajes.terraza ?? 0) > 0)) return false;
  if (q.roofGarden && !((unit.metrajes.roofGarden ?? 0) > 0)) return false;
  const filters = { ...q.filters };
  if (hasPriceCriterion(q)) {
    // A price the caller may not see answers no price question (its range would reveal it).
    if (priceIn(unit, q.divisa, currencies) === undefined) return false;
    const to = findCurrency(currencies, unit.divisa ?? DEFAULT_CURRENCY.codigo)!;
    const from = findCurrency(currencies, q.divisa)!;
    if (filters.precioMin !== undefined) filters.precioMin = convert(filters.precioMin, from, to);
    if (filters.precioMax !== undefined) filters.precioMax = convert(filters.precioMax, from, to);
  }
  // The caller's view decides what is priced: the availability page's filter runs over it.
  const asUnit: Unit = { ...unit, precio: unit.precio ?? 0 };
  return unitMatchesFilters(asUnit, filters, {
    ...dev.filterContext,
    hideUnavailablePrices: false,
  });
}

function compareBy(
  q: ChatQuery,
  currencies: readonly Currency[],
): (a: UnitView, b: UnitView) => number {
  switch (q.orden) {
    case 'precio-asc':
    case 'precio-desc': {
      const sign = q.orden === 'precio-asc' ? 1 : -1;
      return (a, b) =>
        sign * ((priceIn(a, q.divisa, currencies) ?? 0) - (priceIn(b, q.divisa, currencies) ?? 0));
    }
    case 'area-asc':
      return (a, b) => a.metrajes.areaTotal - b.metrajes.areaTotal;
    case 'area-desc':
      return (a, b) => b.metrajes.areaTotal - a.metrajes.areaTotal;
    case undefined:
      // No order asked: the cheapest first, units whose price the caller may not see last.
      return (a, b) =>
        (priceIn(a, q.divisa, currencies) ?? Infinity) -
          (priceIn(b, q.divisa, currencies) ?? Infinity) || 0;
    default: {
      const unhandled: never = q.orden;
      throw new Error(`unknown order ${String(unhandled)}`);
    }
  }
}

/**
 * Runs a query over the developments' units the caller may see: the units that match, the
 * first {@link CHAT_UNITS_PER_DEVELOPMENT} of each development in the order asked for (the
 * cheapest first when none is). With an order, developments are sorted by their best unit;
 * otherwise they keep their given order.
 */
export function answerChatQuery(
  query: ChatQuery,
  developments: readonly ChatInventoryDevelopment[],
  currencies: readonly Currency[],
): ChatAnswer {
  const compare = compareBy(query, currencies);
  const out: ChatAnswerDevelopment[] = [];
  let total = 0;
  for (const dev of developments) {
    if (query.desarrollos.length > 0 && !query.desarrollos.includes(dev.id)) continue;
    const found = dev.units.filter((u) => matches(u, dev, query, currencies));
    if (found.length === 0) continue;
    found.sort(compare);
    total += found.length;
    out.push({
      id: dev.id,
      slug: dev.slug,
      nombre: dev.nombre,
      total: found.length,
      unidades: found.slice(0, CHAT_UNITS_PER_DEVELOPMENT),
    });
  }
  // With an order asked, developments follow their best unit; otherwise their own order.
  if (query.orden) out.sort((a, b) => compare(a.unidades[0]!, b.unidades[0]!));
  return { total, desarrollos: out };
}

/** A unit's area in the user's unit, two decimals (for the answer's cards). */
export function chatUnitArea(unit: Pick<Unit, 'metrajes'>, areaUnit: AreaUnit): number {
  return round2(areaIn(unit.metrajes.areaTotal, areaUnit));
}

// ---------------------------------------------------------------------------------------------
// The wire: what the chat route answers

/** A unit card of the inventory assistant's answer (what the caller may see of the unit). */
export interface ChatUnitCard {
  id: string;
  nombre: string;
  /** Absent when the unit's status hides its price from the caller. */
  precio?: number;
  divisa: string;
  recamaras: number;
  banios: number;
  baniosMedios: number;
  cajones: number;
  /** m² (the screen converts to the user's unit). */
  areaTotal: number;
  terraza?: number;
}

/** One development of an inventory answer, with the path segments its links need. */
export interface ChatReplyDevelopment {
  id: string;
  slug: string;
  nombre: string;
  total: number;
  unidades: ChatUnitCard[];
}

/**
 * The chat route's reply: the corporate's webhook's `output` (HTML the browser sanitises right
 * before inserting it), or the inventory assistant's answer (`entendida: false`: the screen
 * lists the filters it can use).
 */
export type ChatReply =
  | { tipo: 'html'; html: string }
  | {
      tipo: 'inventario';
      entendida: boolean;
      intencion: ChatQuery['intencion'];
      total: number;
      desarrollos: ChatReplyDevelopment[];
    };

/** A unit as a card of the answer. */
export function chatUnitCard(unit: UnitView): ChatUnitCard {
  const c = unit.caracteristicas;
  const card: ChatUnitCard = {
    id: unit.id,
    nombre: unit.nombre,
    divisa: unit.divisa ?? DEFAULT_CURRENCY.codigo,
    recamaras: c.recamaras,
    banios: c.banios,
    baniosMedios: c.baniosMedios || 0,
    cajones: c.cajones,
    areaTotal: unit.metrajes.areaTotal,
  };
  if (typeof unit.precio === 'number') card.precio = unit.precio;
  if ((unit.metrajes.terraza ?? 0) > 0) card.terraza = unit.metrajes.terraza;
  return card;
}
