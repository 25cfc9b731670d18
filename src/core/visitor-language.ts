/**
 * The language of the signed-out pages (issue 19): on a bilingual corporate (`multiIdioma`) the
 * public availability, simulator and shared quotation follow the visitor — the language the
 * share link names (`?lang=en`: the adviser chose it for this buyer), else the one they picked
 * on this device with the switch, else their browser's preference (`navigator.languages`);
 * Spanish otherwise, and always on a corporate with Spanish only.
 */

export type VisitorLanguage = 'es' | 'en';

/**
 * The cookie that carries the choice remembered on this device (the client writes it beside its
 * storage, ui/i18n/language.ts), so the server paints a public page's first frame and preloads
 * its texts in the language the page will show.
 */
export const LANGUAGE_COOKIE = 'vitrina_idioma';
const LANGUAGES: readonly VisitorLanguage[] = ['es', 'en'];

const asLanguage = (value: string | null | undefined): VisitorLanguage | null => {
  const code = value?.trim().toLowerCase().slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(code ?? '') ? (code as VisitorLanguage) : null;
};

/** The visitor's language, by the rule above. */
export function visitorLanguage(input: {
  multiIdioma: boolean;
  /** The share link's `lang`. */
  requested?: string | null;
  /** The choice remembered on this device (none: null). */
  stored?: string | null;
  /** The browser's languages, preferred first. */
  preferred?: readonly string[];
}): VisitorLanguage {
  if (!input.multiIdioma) return 'es';
  const requested = asLanguage(input.requested);
  if (requested) return requested;
  const stored = asLanguage(input.stored);
  if (stored) return stored;
  for (const tag of input.preferred ?? []) {
    const lang = asLanguage(tag);
    if (lang) return lang;
  }
  return 'es';
}
