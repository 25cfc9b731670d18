/**
 * The language of the signed-out pages (issue 19; the rule: core/visitor-language.ts) and the
 * EN/ES switch of the public pages (the sign-in page has its own: i18n/sign-in.ts).
 */
import { useLayoutEffect } from 'react';
import { visitorLanguage } from '../../core/visitor-language';
import { LanguageSwitchButton } from '../components/language-switch';
import { currentLanguage, LANGUAGE_KEY, setLanguage } from '../i18n';

function storedChoice(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Puts the interface in the visitor's language once the corporate is known (`multiIdioma`
 * undefined: not yet). Not remembered: only the switch remembers a choice. A layout effect: when
 * the language's texts are already here (main.tsx fetches them with the page), the switch
 * happens before the first paint, so the page is not laid out twice (no layout shift).
 */
export function useVisitorLanguage(multiIdioma: boolean | undefined, requested?: string | null) {
  useLayoutEffect(() => {
    if (multiIdioma === undefined) return;
    const wanted = visitorLanguage({
      multiIdioma,
      requested,
      stored: storedChoice(),
      preferred: typeof navigator === 'undefined' ? [] : navigator.languages,
    });
    if (wanted !== currentLanguage()) void setLanguage(wanted, { remember: false });
  }, [multiIdioma, requested]);
}

/** The EN/ES switch of the public pages and the shared quotation; the choice is remembered. */
export function LanguageSwitch() {
  return <LanguageSwitchButton onSwitch={(lng) => void setLanguage(lng)} />;
}
