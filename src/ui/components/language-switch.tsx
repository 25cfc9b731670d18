/**
 * The EN/ES button of the signed-out pages (public headers, the shared quotation, the sign-in
 * page): it names the other language; the caller switches (lib/visitor-language.tsx in the
 * application, i18n/sign-in.ts on the light sign-in page).
 */
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { Language } from '../i18n/language';

export function LanguageSwitchButton({ onSwitch }: { onSwitch: (lng: Language) => void }) {
  const { t, i18n } = useTranslation('shell');
  const other: Language = i18n.language === 'en' ? 'es' : 'en';
  return (
    <button
      type="button"
      data-testid="language-toggle"
      // The name starts with the visible "EN"/"ES" (WCAG 2.5.3, label in name).
      aria-label={t(`topbar.switchLanguage.${other}`, { code: other.toUpperCase() })}
      onClick={() => onSwitch(other)}
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
