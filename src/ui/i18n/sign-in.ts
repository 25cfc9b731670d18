/**
 * i18next for the light sign-in page (entries/sign-in.tsx): the same instance and keys as the
 * application's (index.ts), but only the texts the page shows — Spanish with the page, English
 * as a small chunk of its own when the visitor chose it — so /login loads none of the other
 * namespaces. The choice is the one the application reads (the device's stored language).
 */

import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  keepLanguageCookie,
  rememberLanguage,
  storedLanguage,
  type Language,
} from './language';
import spanish from './sign-in-texts.es';

const NAMESPACES = Object.keys(spanish);

async function addEnglish(): Promise<void> {
  if (i18n.hasResourceBundle('en', 'shell')) return;
  const english = (await import('./sign-in-texts.en')).default;
  for (const [ns, bundle] of Object.entries(english))
    i18n.addResourceBundle('en', ns, bundle, true, true);
}

/**
 * Switches the page's language (loading English first when needed); remembered on the device
 * unless `remember` is false, so the application opens in it after the sign-in.
 */
export async function setSignInLanguage(
  lng: Language,
  { remember = true }: { remember?: boolean } = {},
): Promise<void> {
  if (lng === 'en') await addEnglish();
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
  if (remember) rememberLanguage(lng);
}

/** Initialises i18next in the device's language; resolves when its texts are here. */
export async function initSignInI18n(): Promise<void> {
  await i18n.use(initReactI18next).init({
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES,
    ns: NAMESPACES,
    defaultNS: 'common',
    resources: { es: spanish },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    returnNull: false,
  });
  const lng = storedLanguage();
  if (lng !== DEFAULT_LANGUAGE) await setSignInLanguage(lng, { remember: false });
  document.documentElement.lang = i18n.language;
  keepLanguageCookie();
}
