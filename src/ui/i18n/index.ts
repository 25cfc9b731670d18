/**
 * i18next for the interface: Spanish by default, English complete.
 *
 * Resources are split per feature namespace, one JSON file per language:
 * `locales/es/<namespace>.json` and `locales/en/<namespace>.json`.
 * To add a namespace (e.g. `inventory`), create those two files — they are picked up by the
 * globs below, nothing else to register — and use it with `useTranslation('inventory')` or
 * `t('inventory:key')`. `tests/unit/i18n.test.ts` fails when a key exists in one language only.
 *
 * The namespaces every screen needs (common, errors, shell) ship in Spanish in the main bundle;
 * feature namespaces (inventory, leads, quotes, …) and English are separate chunks, loaded
 * through a small backend once the user is past the login page ({@link preloadFeatureNamespaces})
 * or when a component asks for one, so the login page's JavaScript stays small. Components
 * re-render when a namespace arrives (`bindI18nStore: 'added'`).
 */

import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { visitorLanguage } from '../../core/visitor-language';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_KEY,
  keepLanguageCookie,
  LANGUAGES,
  rememberLanguage,
  storedLanguage,
  type Language,
} from './language';

export { DEFAULT_LANGUAGE, LANGUAGE_KEY, LANGUAGES, storedLanguage, type Language };

type Bundle = Record<string, unknown>;

function namespaceOf(path: string): string {
  return path.replace(/^.*\/([^/]+)\.json$/, '$1');
}

/** Needed before the first paint (the login page, the shell, error toasts). */
const spanish = import.meta.glob<Bundle>(
  ['./locales/es/common.json', './locales/es/errors.json', './locales/es/shell.json'],
  { eager: true, import: 'default' },
);
const lazy: Record<Language, Record<string, () => Promise<Bundle>>> = {
  es: import.meta.glob<Bundle>(
    [
      './locales/es/*.json',
      '!./locales/es/common.json',
      '!./locales/es/errors.json',
      '!./locales/es/shell.json',
    ],
    { import: 'default' },
  ),
  en: import.meta.glob<Bundle>('./locales/en/*.json', { import: 'default' }),
};

const loaderFor = (lng: string, ns: string) =>
  Object.entries(lazy[lng as Language] ?? {}).find(([path]) => namespaceOf(path) === ns)?.[1];

export const EAGER_NAMESPACES = Object.keys(spanish).map(namespaceOf);
export const FEATURE_NAMESPACES = Object.keys(lazy.es).map(namespaceOf);
export const NAMESPACES = [...EAGER_NAMESPACES, ...FEATURE_NAMESPACES];

/** An i18next backend over the lazy chunks above. */
const chunkBackend = {
  type: 'backend' as const,
  init: () => undefined,
  read(lng: string, ns: string, callback: (error: unknown, data: Bundle | false) => void) {
    const load = loaderFor(lng, ns);
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (data) => callback(null, data),
      (error: unknown) => callback(error, false),
    );
  },
};

function localStorageItem(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * Fetches the bundles of the given namespaces of a language. No i18next call: this also runs
 * before `init`, which is what defines i18next's store methods (`hasResourceBundle`,
 * `addResourceBundle`, …) on the instance.
 */
function fetchBundles(
  lng: Language,
  namespaces: readonly string[],
): Promise<(readonly [string, Bundle])[]> {
  return Promise.all(
    namespaces.flatMap((ns) => {
      const load = loaderFor(lng, ns);
      return load ? [load().then((bundle) => [ns, bundle] as const)] : [];
    }),
  );
}

/**
 * Loads the given namespaces of a language (those not there yet) and adds them at once: every
 * bundle but the last silently, so the screens re-render once, not once per namespace (each
 * `added` event re-renders every component that translates; on the public availability's grid,
 * a long task each time). Only once i18next is initialised.
 */
async function addNamespaces(lng: Language, namespaces: readonly string[]): Promise<void> {
  const missing = namespaces.filter((ns) => !i18n.hasResourceBundle(lng, ns));
  const loaded = await fetchBundles(lng, missing);
  loaded.forEach(([ns, bundle], i) =>
    i18n.addResourceBundle(lng, ns, bundle, true, true, { silent: i < loaded.length - 1 }),
  );
}

/**
 * The namespaces a switch to `lng` must fetch first: those the current language has (what the
 * screens so far use). A public page has only its own, so its switch fetches only those.
 */
function missingFor(lng: Language): string[] {
  const current = currentLanguage();
  return NAMESPACES.filter(
    (ns) => i18n.hasResourceBundle(current, ns) && !i18n.hasResourceBundle(lng, ns),
  );
}

/**
 * Initialises i18next; resolves when ready. A public page (`opening`: the page's path and query)
 * opens in its visitor's likely language with only its own texts (see {@link
 * prefetchVisitorLanguage}); any other page in the stored language.
 */
export async function initI18n(opening?: {
  pathname: string;
  search: string;
}): Promise<typeof i18n> {
  // A public page's texts, fetched before i18next starts and given to it with the Spanish it
  // ships with (i18next's store does not exist before `init`).
  const visitor = opening ? publicOpening(opening.pathname, opening.search) : null;
  const fetched = visitor
    ? await fetchBundles(
        visitor.lng,
        visitor.lng === DEFAULT_LANGUAGE
          ? visitor.namespaces
          : [...EAGER_NAMESPACES, ...visitor.namespaces],
      ).catch(() => [])
    : [];
  const bundles = (lng: Language) =>
    visitor?.lng === lng ? Object.fromEntries(fetched) : ({} as Record<string, Bundle>);
  const lng = visitor?.lng ?? storedLanguage();
  await i18n
    .use(chunkBackend)
    .use(initReactI18next)
    .init({
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: LANGUAGES,
      ns: EAGER_NAMESPACES,
      partialBundledLanguages: true,
      defaultNS: 'common',
      resources: {
        es: {
          ...Object.fromEntries(
            Object.entries(spanish).map(([path, bundle]) => [namespaceOf(path), bundle]),
          ),
          ...bundles('es'),
        },
        ...(visitor?.lng === 'en' ? { en: bundles('en') } : {}),
      },
      interpolation: { escapeValue: false },
      react: { useSuspense: false, bindI18nStore: 'added' },
      returnNull: false,
    });
  // Not remembered again: a stored choice is there already, a visitor's guess is no choice.
  if (lng !== DEFAULT_LANGUAGE) await setLanguage(lng, { remember: false });
  document.documentElement.lang = i18n.language;
  keepLanguageCookie();
  return i18n;
}

let featureTexts: Promise<void> | null = null;
/**
 * Fetches every feature namespace once (from the first page that is not the login page or a
 * public page); resolves when they are in, or failed to come (the page then shows without them
 * rather than never). The root route's loader waits for it, so no screen draws its texts' keys
 * first: the development's tabs did ("pages.disponibilidad-simple", a layout shift of 0.074
 * when the texts came a frame after the page).
 */
export function preloadFeatureNamespaces(): Promise<void> {
  // Fetched in one batch, then registered with i18next (present by then: nothing more to load),
  // so a later language switch loads them too.
  featureTexts ??= addNamespaces(currentLanguage(), FEATURE_NAMESPACES)
    .then(() => i18n.loadNamespaces(FEATURE_NAMESPACES))
    .catch(() => undefined);
  return featureTexts;
}

/** Whether a page needs the feature namespaces (not the login page, not a public page). */
export const needsFeatureNamespaces = (pathname: string): boolean =>
  pathname !== '/login' && publicPageNamespaces(pathname) === null;

/**
 * The feature namespaces of a public page (null: not a public page). The server names the same
 * chunks in the page's HTML (src/server/http/page-preloads.ts), so they are on their way already.
 */
export function publicPageNamespaces(pathname: string): string[] | null {
  if (!pathname.startsWith('/public/')) return null;
  return /\/cotizacion(?:\/|$)/.test(pathname) ? ['quotes'] : ['inventory'];
}

/**
 * Fetches a public page's texts in its visitor's likely language without switching to it, and
 * resolves with that language (null: not a public page). The visitor's language is only known
 * once the corporate is (`multiIdioma`), so it is guessed as on a bilingual one; only the page's
 * own namespaces, in that language only (a visitor reads one): the rest of the interface loads
 * when the visitor goes past the public pages.
 */
export async function prefetchVisitorLanguage(
  pathname: string,
  searchStr: string,
): Promise<Language | null> {
  const visitor = publicOpening(pathname, searchStr);
  if (!visitor) return null;
  await addNamespaces(visitor.lng, [...EAGER_NAMESPACES, ...visitor.namespaces]).catch(
    () => undefined,
  );
  return visitor.lng;
}

/** A public page's likely language and its namespaces (null: not a public page). */
function publicOpening(
  pathname: string,
  searchStr: string,
): { lng: Language; namespaces: string[] } | null {
  const namespaces = publicPageNamespaces(pathname);
  if (!namespaces) return null;
  const lng = visitorLanguage({
    multiIdioma: true,
    requested: new URLSearchParams(searchStr).get('lang'),
    stored: localStorageItem(LANGUAGE_KEY),
    preferred: typeof navigator === 'undefined' ? [] : navigator.languages,
  });
  return { lng, namespaces };
}

/**
 * Switches the interface language (loading it when needed) and, unless `remember` is false,
 * remembers it on this device as the user's choice. A switch the product imposes (a corporate
 * without multiIdioma shows Spanish) is not remembered, so the user's choice comes back with
 * the next corporate that offers it.
 */
export async function setLanguage(lng: Language, { remember = true }: { remember?: boolean } = {}) {
  // Loaded already: the switch happens in this call, synchronously (see useVisitorLanguage).
  const missing = missingFor(lng);
  if (missing.length > 0) await addNamespaces(lng, missing);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
  if (remember) rememberLanguage(lng);
}

export function currentLanguage(): Language {
  return i18n.language === 'en' ? 'en' : 'es';
}

export default i18n;
