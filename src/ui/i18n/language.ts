/**
 * The interface's languages and where the device remembers the choice: shared by the
 * application's i18next (index.ts) and the light sign-in page's (sign-in.ts).
 */
import { LANGUAGE_COOKIE } from '../../core/visitor-language';

export type Language = 'es' | 'en';
export const LANGUAGES: readonly Language[] = ['es', 'en'];
export const DEFAULT_LANGUAGE: Language = 'es';
export const LANGUAGE_KEY = 'vitrina:idioma';

/** The choice as a cookie too (see LANGUAGE_COOKIE): a year, the whole site, first-party only. */
function writeLanguageCookie(lng: Language): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${lng}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/** The language the user chose on this device (Spanish when none). */
export function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === 'en' ? 'en' : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Remembers the user's choice on this device (not remembered when storage is refused). */
export function rememberLanguage(lng: Language): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, lng);
  } catch {
    // Not remembered; the interface still switches.
    return;
  }
  writeLanguageCookie(lng);
}

/**
 * The remembered choice's cookie is written again at every start: a choice remembered before the
 * cookie existed, or whose cookie was cleared, gets it back (so the next public page the server
 * paints is in that language), and a kept one runs a year from the last visit, like the choice.
 */
export function keepLanguageCookie(): void {
  let stored: string | null;
  try {
    stored = localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return;
  }
  if (stored === 'es' || stored === 'en') writeLanguageCookie(stored);
}
