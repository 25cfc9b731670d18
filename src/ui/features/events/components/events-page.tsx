/**
 * Events (calendar): today's date in the corporate's time zone, the day's appointments — none
 * can exist yet, so the empty state says so — and the corporate's showrooms where they happen.
 */

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { mayAdministerShowrooms } from '../../../../core/permissions';
import { AppLink } from '../../../components/app-link';
import { CalendarIcon, MapPinIcon } from '../../../components/icons';
import { LoadingScreen } from '../../../components/loading-screen';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { errorMessage } from '../../../lib/errors';
import { showroomsQuery } from '../api/showrooms';

export function EventsPage() {
  const { t, i18n } = useTranslation('shell');
  const { corporate, role } = useCorporateContext();
  const showrooms = useQuery(showroomsQuery(corporate.id));
  const today = new Intl.DateTimeFormat(i18n.language, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: corporate.zonaHoraria || undefined,
  }).format(new Date());

  return (
    <div
      className={css({
        maxW: '64rem',
        mx: 'auto',
        display: 'grid',
        gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' },
        gap: 6,
        alignItems: 'start',
      })}
    >
      <section aria-labelledby="today-title" className={`${card()} ${css({ p: 6 })}`}>
        <h2
          id="today-title"
          className={css({
            fontSize: 'xl',
            fontWeight: 'semibold',
            mb: 6,
            _firstLetter: { textTransform: 'uppercase' },
          })}
        >
          {t('events.today', { date: today })}
        </h2>
        <div
          className={css({
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            gap: 3,
            py: 12,
            color: 'muted',
            textAlign: 'center',
            '& svg': { w: 10, h: 10, opacity: 0.5 },
          })}
        >
          <CalendarIcon />
          <p className={css({ fontWeight: 'medium' })}>{t('events.noAppointments')}</p>
        </div>
      </section>
      <section aria-labelledby="showrooms-title" className={`${card()} ${css({ p: 6 })}`}>
        <h2 id="showrooms-title" className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: 4 })}>
          {t('events.showrooms')}
        </h2>
        {mayAdministerShowrooms(role) ? (
          <AppLink
            href={`/corporativos/${corporate.slug}/showrooms`}
            className={`${button({ variant: 'ghost' })} ${css({ mb: 4, w: '100%' })}`}
          >
            {t('events.manageShowrooms')}
          </AppLink>
        ) : null}
        {showrooms.isPending ? (
          <LoadingScreen />
        ) : showrooms.isError ? (
          <p role="alert">{errorMessage(showrooms.error)}</p>
        ) : showrooms.data.length === 0 ? (
          <p className={css({ color: 'muted' })}>{t('events.noShowrooms')}</p>
        ) : (
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}>
            {showrooms.data.map((s) => (
              <li
                key={s.id}
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: 3,
                  '& svg': { w: 5, h: 5, color: 'primary', flexShrink: 0 },
                })}
              >
                <MapPinIcon />
                <span className={css({ flex: 1, fontWeight: 'medium' })}>{s.nombre}</span>
                <span
                  className={css({
                    fontSize: 'xs',
                    fontWeight: 'semibold',
                    px: 2,
                    py: 0.5,
                    borderRadius: 'full',
                  })}
                  style={
                    s.activo
                      ? { background: '#e5f5ea', color: '#1f6b35' }
                      : { background: '#eee', color: '#555' }
                  }
                >
                  {s.activo ? t('events.active') : t('events.inactive')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
