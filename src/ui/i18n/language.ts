/**
 * The interface's languages and where the device remembers the choice: shared by the
 * application's i18next (index.ts) and the light sign-in page's (sign-in.ts).
 */

export type Language = 'es' | 'en';
export const LANGUAGES: readonly Language[] = ['es', 'en'];
export const DEFAULT_LANGUAGE: Language = 'es';
export const LANGUAGE_KEY = 'vitrina:idioma';

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
  }
}
