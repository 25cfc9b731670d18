/**
 * The notification preferences (issue 15 point 6), opened from the bell: per kind, a switch for
 * the app (the bell's list and count) and one for push. Each switch saves at once; push messages
 * are written in the user's interface language.
 */
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../../../core/notifications';
import { Modal } from '../../../components/modal';
import { usePreferences, useUpdatePreferences, type KindPreference } from '../api/preferences';

const cell = css({ px: { base: 2, sm: 3 }, py: 2, textAlign: 'center', verticalAlign: 'middle' });
const check = css({
  w: 5,
  h: 5,
  m: 2,
  cursor: 'pointer',
  accentColor: 'var(--vt-colorBotonPrimario, #1f6feb)',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
});

export function NotificationPreferencesDialog({
  userId,
  onClose,
}: {
  userId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('notifications');
  const prefs = usePreferences(userId);
  const update = useUpdatePreferences(userId);

  const toggle = (kind: NotificationKind, field: keyof KindPreference, value: boolean) =>
    update.mutate({ tipos: { [kind]: { [field]: value } } });

  return (
    <Modal title={t('preferences.title')} onClose={onClose} id="notification-preferences">
      <p className={css({ fontSize: 'sm', color: 'muted', mb: 4 })}>{t('preferences.intro')}</p>
      {prefs.isError ? (
        <p role="alert" className={css({ color: 'danger', fontSize: 'sm' })}>
          {t('preferences.loadError')}
        </p>
      ) : !prefs.data ? (
        <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('preferences.loading')}</p>
      ) : (
        <table
          data-testid="notification-preferences"
          className={css({ w: '100%', borderCollapse: 'collapse', fontSize: 'sm' })}
        >
          <caption className={css({ srOnly: true })}>{t('preferences.caption')}</caption>
          <thead>
            <tr className={css({ borderBottomWidth: '1px', borderColor: 'border' })}>
              <th scope="col" className={css({ textAlign: 'left', py: 2, fontWeight: 'semibold' })}>
                {t('preferences.kind')}
              </th>
              <th scope="col" className={cell}>
                {t('preferences.app')}
              </th>
              <th scope="col" className={cell}>
                {t('preferences.push')}
              </th>
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_KINDS.map((kind) => {
              const value = prefs.data.tipos[kind] ?? { app: true, push: true };
              const label = t(`preferences.kinds.${kind}`);
              return (
                <tr
                  key={kind}
                  data-kind={kind}
                  className={css({ borderBottomWidth: '1px', borderColor: 'border' })}
                >
                  <th
                    scope="row"
                    className={css({ textAlign: 'left', py: 2, fontWeight: 'normal' })}
                  >
                    {label}
                  </th>
                  {(['app', 'push'] as const).map((field) => (
                    <td key={field} className={cell}>
                      <input
                        type="checkbox"
                        className={check}
                        data-testid={`pref-${kind}-${field}`}
                        checked={value[field]}
                        aria-label={t(`preferences.${field}Of`, { kind: label })}
                        onChange={(e) => toggle(kind, field, e.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p
        role="status"
        data-testid="notification-preferences-status"
        className={css({
          fontSize: 'sm',
          mt: 3,
          minH: 5,
          color: update.isError ? 'danger' : 'muted',
        })}
      >
        {update.isError
          ? t('preferences.saveError')
          : update.isSuccess
            ? t('preferences.saved')
            : ''}
      </p>
      <p className={css({ fontSize: 'xs', color: 'muted', mt: 2 })}>{t('preferences.language')}</p>
    </Modal>
  );
}
