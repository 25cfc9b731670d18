/** The signed-in user's own profile in this corporate — role, lead scope and permissions (the users page of a role that does not manage users). */

import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { seesAllLeads } from '../../../../core/permissions';
import { card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { useDateFormat } from '../../../lib/dates';

const PERMISSIONS = [
  'generarReporteCotizaciones',
  'activarAdminUsuarios',
  'adminHostes',
  'administrarInventario',
] as const;
const USER_PERMISSIONS = ['crearUsuarios', 'editarUsuarios'] as const;

export function MyProfile() {
  const { t } = useTranslation('shell');
  const { corporate, user, role } = useCorporateContext();
  const granted = [
    ...PERMISSIONS.filter((p) => role?.permisos[p]),
    ...USER_PERMISSIONS.filter((p) => role?.permisosUsuarios[p]),
  ];
  const formatDate = useDateFormat(corporate.zonaHoraria);
  const row = css({
    display: 'grid',
    gridTemplateColumns: { base: '1fr', sm: '12rem 1fr' },
    gap: 1,
    py: 3,
    borderTopWidth: '1px',
    borderColor: 'border',
  });
  const term = css({ fontSize: 'sm', color: 'muted' });

  return (
    <div className={css({ maxW: '48rem', mx: 'auto' })}>
      <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: 6 })}>{t('users.title')}</h2>
      <section
        aria-labelledby="profile-title"
        className={`${card()} ${css({ p: { base: 5, md: 8 } })}`}
      >
        <div className={css({ display: 'flex', alignItems: 'center', gap: 4, mb: 6 })}>
          <span
            aria-hidden="true"
            className={css({
              display: 'grid',
              placeItems: 'center',
              w: 16,
              h: 16,
              borderRadius: 'full',
              bg: 'primary',
              color: 'primaryText',
              fontSize: 'xl',
              fontWeight: 'bold',
            })}
          >
            {`${user.nombre[0] ?? ''}${user.apellidos[0] ?? ''}`.toUpperCase()}
          </span>
          <div>
            <p
              id="profile-title"
              className={css({
                fontSize: 'xs',
                textTransform: 'uppercase',
                letterSpacing: '0.05em',
                color: 'muted',
                fontWeight: 'semibold',
              })}
            >
              {t('users.profile')}
            </p>
            <h3 className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>
              {user.nombre} {user.apellidos}
            </h3>
          </div>
        </div>
        <dl>
          <div className={row}>
            <dt className={term}>{t('users.email')}</dt>
            <dd>{user.email}</dd>
          </div>
          <div className={row}>
            <dt className={term}>{t('users.role')}</dt>
            <dd data-testid="user-role" className={css({ fontWeight: 'semibold' })}>
              {role?.nombre ?? '—'}
            </dd>
          </div>
          <div className={row}>
            <dt className={term}>{t('users.leadScope')}</dt>
            <dd>
              {role
                ? t(seesAllLeads(role) ? 'users.leadScopeTodos' : 'users.leadScopePropios')
                : '—'}
            </dd>
          </div>
          <div className={row}>
            <dt className={term}>{t('users.permissions')}</dt>
            <dd>
              {granted.length === 0 ? (
                <span className={css({ color: 'muted' })}>{t('users.noPermissions')}</span>
              ) : (
                <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}>
                  {granted.map((p) => (
                    <li
                      key={p}
                      className={css({
                        fontSize: 'sm',
                        px: 3,
                        py: 1,
                        borderRadius: 'full',
                        bg: 'rgba(31,111,235,0.08)',
                        color: 'link',
                        fontWeight: 'medium',
                      })}
                    >
                      {t(`users.perm.${p}`)}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
          <div className={row}>
            <dt className={term}>{t('users.memberSince')}</dt>
            <dd>{formatDate(user.fechaAlta, 'dateLong')}</dd>
          </div>
          <div className={row}>
            <dt className={term}>{t('users.lastSession')}</dt>
            <dd>
              {user.sesionUltima ? formatDate(user.sesionUltima, 'dateTime') : t('users.never')}
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
