/**
 * The language of the signed-out pages (issue 19; the rule: core/visitor-language.ts) and the
 * EN/ES switch of the public pages and the sign-in page.
 */
import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { visitorLanguage } from '../../core/visitor-language';
import { currentLanguage, LANGUAGE_KEY, setLanguage, type Language } from '../i18n';

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

/** The EN/ES switch of the public pages and the sign-in page; the choice is remembered. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('shell');
  const other: Language = i18n.language === 'en' ? 'es' : 'en';
  return (
    <button
      type="button"
      data-testid="language-toggle"
      // The name starts with the visible "EN"/"ES" (WCAG 2.5.3, label in name).
      aria-label={t(`topbar.switchLanguage.${other}`, { code: other.toUpperCase() })}
      onClick={() => void setLanguage(other)}
      className={css({
        minW: 11,
        minH: 11,
        px: 3,
        borderRadius: 'lg',
        border: '1px solid',
        borderColor: 'border',
        fontWeight: 'bold',
        fontSize: 'sm',
        letterSpacing: '0.05em',
        cursor: 'pointer',
        bg: 'surface',
        color: 'text',
        _hover: { borderColor: 'primary', color: 'primary' },
        _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
      })}
    >
      {other.toUpperCase()}
    </button>
  );
}
