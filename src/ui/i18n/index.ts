/**
 * i18next for the interface: Spanish by default, English complete.
 *
 * Resources are split per feature namespace, one JSON file per language:
 * `locales/es/<namespace>.json` and `locales/en/<namespace>.json`.
 * To add a namespace (e.g. `inventory`), create those two files — they are picked up by the
 * globs below, nothing else to register — and use it with `useTranslation('inventory')` or
 * `t('inventory:key')`. `tests/unit/i18n.test.ts` fails when a key exists in one language only.
 *
 * Spanish ships in the main bundle; English is a separate chunk loaded on first use.
 */

import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

export type Language = 'es' | 'en';
export const LANGUAGES: readonly Language[] = ['es', 'en'];
export const DEFAULT_LANGUAGE: Language = 'es';
export const LANGUAGE_KEY = 'vitrina:idioma';

type Bundle = Record<string, unknown>;

function namespaceOf(path: string): string {
  return path.replace(/^.*\/([^/]+)\.json$/, '$1');
}

const spanish = import.meta.glob<Bundle>('./locales/es/*.json', { eager: true, import: 'default' });
const lazy: Record<Exclude<Language, 'es'>, Record<string, () => Promise<Bundle>>> = {
  en: import.meta.glob<Bundle>('./locales/en/*.json', { import: 'default' }),
};

export const NAMESPACES = Object.keys(spanish).map(namespaceOf);

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return value === 'en' ? 'en' : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

async function loadLanguage(lng: Language) {
  if (lng === 'es' || i18n.hasResourceBundle(lng, 'common')) return;
  const loaders = lazy[lng];
  await Promise.all(
    Object.entries(loaders).map(async ([path, load]) => {
      i18n.addResourceBundle(lng, namespaceOf(path), await load(), true, true);
    }),
  );
}

/** Initialises i18next with the stored language (loading it first); resolves when ready. */
export async function initI18n(): Promise<typeof i18n> {
  const lng = storedLanguage();
  await i18n.use(initReactI18next).init({
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES,
    ns: NAMESPACES,
    defaultNS: 'common',
    resources: {
      es: Object.fromEntries(
        Object.entries(spanish).map(([path, bundle]) => [namespaceOf(path), bundle]),
      ),
    },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    returnNull: false,
  });
  if (lng !== DEFAULT_LANGUAGE) await setLanguage(lng);
  document.documentElement.lang = i18n.language;
  return i18n;
}

/** Switches the interface language (loading it when needed) and remembers it on this device. */
export async function setLanguage(lng: Language) {
  await loadLanguage(lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
  try {
    localStorage.setItem(LANGUAGE_KEY, lng);
  } catch {
    // Not remembered; the interface still switches.
  }
}

export function currentLanguage(): Language {
  return i18n.language === 'en' ? 'en' : 'es';
}

export default i18n;
