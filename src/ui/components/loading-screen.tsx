import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';

/** A centred spinner with its message, announced politely. */
export function LoadingScreen({
  message,
  fullScreen = false,
}: {
  message?: string;
  fullScreen?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-live="polite"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 4,
        minH: fullScreen ? '100dvh' : '50vh',
        color: 'muted',
        fontSize: 'sm',
      })}
    >
      <span
        aria-hidden="true"
        className={css({
          w: 10,
          h: 10,
          borderRadius: 'full',
          border: '3px solid',
          borderColor: 'border',
          borderTopColor: 'primary',
          animation: 'spin 0.8s linear infinite',
        })}
      />
      <span>{message ?? t('loading')}</span>
    </div>
  );
}
