import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { corporatePath } from '../../../../core/navigation';
import type { User } from '../../../../core/types';
import { AppLink } from '../../../components/app-link';
import { CorporateLogo } from '../../../components/corporate-logo';
import { StarIcon } from '../../../components/icons';
import { DashboardLayout } from '../../../layouts/dashboard-layout';
import { api } from '../../../lib/api';
import { useSession, useSessionActor } from '../../../session';

const tile = css({
  position: 'relative',
  display: 'flex',
  alignItems: 'center',
  gap: 4,
  p: 5,
  minH: 24,
  bg: 'surface',
  borderRadius: 'xl',
  border: '1px solid',
  borderColor: 'border',
  color: 'text',
  textDecoration: 'none',
  transition: 'box-shadow 0.15s, border-color 0.15s, transform 0.15s',
});

/** The user's corporates (spec §2, §6): approved ones open; registered, unapproved ones are disabled. */
export function CorporatesPage() {
  const { t } = useTranslation('shell');
  const session = useSessionActor();
  const user = useSession((s) => s.context.user);
  const corporates = useSession((s) => s.context.corporates);
  const favourite = useMutation({
    mutationFn: (id: string) =>
      api<User>(`/api/users/${encodeURIComponent(user?.id ?? '')}/corporativo-favorito`, {
        method: 'PUT',
        body: { corporativoFavorito: id },
      }),
    onSuccess: (updated) => session.send({ type: 'session.userUpdated', user: updated }),
  });

  return (
    <DashboardLayout>
      <div className={css({ maxW: '56rem', mx: 'auto' })}>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: '-0.01em' })}>
          {t('corporates.title')}
        </h2>
        <p className={css({ color: 'muted', mt: 1, mb: 6 })}>{t('corporates.subtitle')}</p>
        {corporates.length === 0 ? (
          <p
            className={css({
              color: 'muted',
              bg: 'surface',
              p: 6,
              borderRadius: 'xl',
              textAlign: 'center',
            })}
          >
            {t('corporates.empty')}
          </p>
        ) : (
          <ul
            className={css({
              display: 'grid',
              gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)' },
              gap: 4,
            })}
          >
            {corporates.map((c) => {
              const isFavourite = user?.corporativoFavorito === c.id;
              return (
                <li key={c.id} className={css({ position: 'relative' })}>
                  {c.aprobado ? (
                    <AppLink
                      href={corporatePath(c.slug)}
                      className={`${tile} ${css({ _hover: { boxShadow: '0 10px 30px rgba(10,20,35,0.10)', borderColor: 'primary', transform: 'translateY(-1px)' }, _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' } })}`}
                    >
                      <CorporateLogo corporate={c} size={56} />
                      <span className={css({ fontSize: 'lg', fontWeight: 'semibold', pr: 12 })}>
                        {c.nombre}
                      </span>
                    </AppLink>
                  ) : (
                    <div
                      aria-disabled="true"
                      className={`${tile} ${css({ opacity: 0.65, cursor: 'not-allowed', bg: 'rgba(255,255,255,0.6)' })}`}
                    >
                      <CorporateLogo corporate={c} size={56} />
                      <span className={css({ display: 'flex', flexDirection: 'column', gap: 1 })}>
                        <span className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
                          {c.nombre}
                        </span>
                        <span
                          className={css({
                            fontSize: 'xs',
                            fontWeight: 'semibold',
                            color: '#8a5a00',
                            bg: '#fff3d6',
                            px: 2,
                            py: 0.5,
                            borderRadius: 'full',
                            alignSelf: 'flex-start',
                          })}
                        >
                          {t('corporates.approvalPending')}
                        </span>
                      </span>
                    </div>
                  )}
                  {c.aprobado ? (
                    <button
                      type="button"
                      aria-pressed={isFavourite}
                      aria-label={`${t(isFavourite ? 'corporates.favourite' : 'corporates.makeFavourite')}: ${c.nombre}`}
                      disabled={isFavourite || favourite.isPending}
                      onClick={() => favourite.mutate(c.id)}
                      className={css({
                        position: 'absolute',
                        top: '50%',
                        right: 4,
                        transform: 'translateY(-50%)',
                        display: 'grid',
                        placeItems: 'center',
                        w: 11,
                        h: 11,
                        borderRadius: 'full',
                        color: isFavourite ? 'highlight' : 'muted',
                        cursor: 'pointer',
                        _hover: { bg: 'rgba(0,0,0,0.05)' },
                        _disabled: { cursor: 'default' },
                        _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
                      })}
                    >
                      <StarIcon filled={isFavourite} />
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </DashboardLayout>
  );
}
