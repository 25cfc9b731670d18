/**
 * A corporate's own words in another language (issue 19): the names it gave its unit statuses,
 * lead statuses, channels (mediosContacto), payment schemes, categories, tags, optionals, its
 * stages' states (a cluster's `etapa`: "En obra", and a development's `tagsEtapaEntrega`:
 * "Entrega 2027"), its roles' names and its "Clients" label are data, written once
 * in Spanish; administrators give each a translation per
 * language. Kept on the corporate (`Corporate.etiquetas`, changed through the corporate's
 * settings event) and served by `GET /api/wsObtenerIdiomas`.
 *
 * A label is looked up by its kind and the value as stored (the Spanish text): a value without a
 * translation is shown as it is.
 */

export const LABEL_KINDS = [
  'status',
  'statusLead',
  'medioContacto',
  'esquema',
  'categoria',
  'tag',
  'opcional',
  'etapa',
  'rol',
  'clientes',
] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

/**
 * What a signed-out visitor may read: the words of the public availability, simulator and
 * shared quotation. Lead statuses, channels, role names and the Clients label are the sales
 * team's.
 */
export const PUBLIC_LABEL_KINDS: readonly LabelKind[] = [
  'status',
  'esquema',
  'categoria',
  'tag',
  'opcional',
  'etapa',
];

export const LABEL_LANGUAGES = ['es', 'en'] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];

/** One language's labels: kind → stored value → shown label. */
export type LabelSet = Partial<Record<LabelKind, Record<string, string>>>;
/** Every language's labels of a corporate. */
export type CorporateLabels = Partial<Record<LabelLanguage, LabelSet>>;

/** Longest value and label, and most labels of one kind. */
export const LABEL_MAX = 120;
export const LABELS_PER_KIND_MAX = 200;

export type LabelProblem =
  | { code: 'UNKNOWN_KIND'; kind: string }
  | { code: 'TOO_MANY'; kind: LabelKind }
  | { code: 'TOO_LONG'; kind: LabelKind; value: string };

/**
 * The labels as stored: values and labels trimmed, an empty label dropped (no translation), the
 * kinds in their fixed order and the values sorted, so the same labels compare equal. Returns
 * the problems instead when a kind is unknown, a kind has too many labels or a text is too long.
 */
export function normaliseLabels(
  input: Record<string, Record<string, string>>,
): { ok: true; labels: LabelSet } | { ok: false; problems: LabelProblem[] } {
  const problems: LabelProblem[] = [];
  const labels: LabelSet = {};
  for (const kind of Object.keys(input)) {
    if (!(LABEL_KINDS as readonly string[]).includes(kind))
      problems.push({ code: 'UNKNOWN_KIND', kind });
  }
  for (const kind of LABEL_KINDS) {
    const entries = input[kind];
    if (!entries) continue;
    const kept: [string, string][] = [];
    for (const [rawValue, rawLabel] of Object.entries(entries)) {
      const value = rawValue.trim();
      const label = rawLabel.trim();
      if (!value || !label) continue;
      if (value.length > LABEL_MAX || label.length > LABEL_MAX) {
        problems.push({ code: 'TOO_LONG', kind, value: value.slice(0, LABEL_MAX) });
        continue;
      }
      kept.push([value, label]);
    }
    if (kept.length > LABELS_PER_KIND_MAX) problems.push({ code: 'TOO_MANY', kind });
    if (kept.length > 0) {
      labels[kind] = Object.fromEntries(kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, labels };
}

/** A language's labels, only the kinds given (the public ones for a signed-out visitor). */
export function labelsFor(
  labels: CorporateLabels | undefined,
  lang: LabelLanguage,
  kinds: readonly LabelKind[] = LABEL_KINDS,
): LabelSet {
  const set = labels?.[lang] ?? {};
  const out: LabelSet = {};
  for (const kind of kinds) if (set[kind]) out[kind] = { ...set[kind] };
  return out;
}

/** The label of a stored value in a language's set; the value itself without a translation. */
export function labelOf(set: LabelSet | undefined, kind: LabelKind, value: string): string {
  const label = set?.[kind]?.[value.trim()];
  return label ?? value;
}
