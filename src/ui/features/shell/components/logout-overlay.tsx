/** The 'Cerrando sesión…' overlay while the session machine holds its logout flag (spec §4). */

import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { useSession } from '../../../session';

export function LogoutOverlay() {
  const { t } = useTranslation('shell');
  const loggingOut = useSession((s) => s.hasTag('logoutLoading'));
  if (!loggingOut) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="logout-loading"
      className={css({
        position: 'fixed',
        inset: 0,
        zIndex: 70,
        display: 'grid',
        placeItems: 'center',
        bg: 'rgba(255,255,255,0.75)',
        backdropFilter: 'blur(2px)',
        fontWeight: 'medium',
        color: 'text',
      })}
    >
      {t('session.loggingOut')}
    </div>
  );
}
