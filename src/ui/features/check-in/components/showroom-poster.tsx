/**
 * A showroom's printable QR poster (`/corporativos/{slug}/showrooms/{id}/cartel`, issue 14): the
 * QR code of today's check-in link (drawn on the server), what to do with it and the day it is
 * valid (the folio rotates at midnight, so a photo of an old poster stops working). Printing
 * shows the poster alone.
 */

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { mayAdministerShowrooms } from '../../../../core/permissions';
import { AppLink } from '../../../components/app-link';
import { CorporateLogo } from '../../../components/corporate-logo';
import { LoadingScreen } from '../../../components/loading-screen';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { errorMessage } from '../../../lib/errors';
import { folioQuery, qrImageUrl } from '../api/check-in';
import { formatInstant } from '../../../../core/date-format';

/** While printing: only the poster, on a white page. */
const PRINT_STYLE = `@media print {
  body * { visibility: hidden !important; }
  [data-poster], [data-poster] * { visibility: visible !important; }
  [data-poster] { position: fixed !important; inset: 0 !important; margin: 0 !important; border: none !important; box-shadow: none !important; }
  [data-print-hide] { display: none !important; }
}`;

export function ShowroomPoster({ showroomId }: { showroomId: string }) {
  const { t, i18n } = useTranslation('checkin');
  const { corporate, role } = useCorporateContext();
  const allowed = mayAdministerShowrooms(role);
  const folio = useQuery({ ...folioQuery(corporate.id, showroomId), enabled: allowed });
  if (!allowed)
    return (
      <p role="alert" className={`${card()} ${css({ p: 6, maxW: '40rem', mx: 'auto' })}`}>
        {t('admin.forbidden')}
      </p>
    );
  if (folio.isPending) return <LoadingScreen />;
  if (folio.isError) return <p role="alert">{errorMessage(folio.error)}</p>;
  const { nombreShowroom, dia, url, activo } = folio.data;
  const date = formatInstant(dia, 'weekdayDateLong', i18n.language, null);
  return (
    <div
      className={css({ display: 'flex', flexDirection: 'column', gap: 4, alignItems: 'center' })}
    >
      <style>{PRINT_STYLE}</style>
      <div
        data-print-hide
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          gap: 3,
          w: '100%',
          maxW: '40rem',
        })}
      >
        <AppLink
          href={`/corporativos/${corporate.slug}/showrooms`}
          className={button({ variant: 'ghost' })}
        >
          {t('poster.back')}
        </AppLink>
        <button
          type="button"
          className={button({ variant: 'primary' })}
          onClick={() => window.print()}
        >
          {t('poster.print')}
        </button>
      </div>
      <article
        data-poster
        data-testid="showroom-poster"
        className={`${card()} ${css({
          w: '100%',
          maxW: '40rem',
          p: { base: 6, md: 10 },
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          textAlign: 'center',
          gap: 4,
          bg: 'white',
          color: '#111',
        })}`}
      >
        <div className={css({ display: 'flex', alignItems: 'center', gap: 3 })}>
          <CorporateLogo corporate={corporate} size={44} />
          <span className={css({ fontWeight: 'semibold', color: '#444' })}>{corporate.nombre}</span>
        </div>
        <h2
          className={css({
            fontSize: { base: '2xl', md: '3xl' },
            fontWeight: 'bold',
            lineHeight: 1.2,
          })}
        >
          {t('poster.title', { showroom: nombreShowroom })}
        </h2>
        {activo ? null : (
          <p role="alert" className={css({ color: '#b42318', fontWeight: 'semibold' })}>
            {t('poster.inactive')}
          </p>
        )}
        <img
          src={qrImageUrl(corporate.id, showroomId, dia)}
          alt={t('poster.qrAlt', { showroom: nombreShowroom })}
          className={css({
            w: '100%',
            maxW: '22rem',
            aspectRatio: '1',
            imageRendering: 'pixelated',
          })}
        />
        <p className={css({ fontSize: { base: 'md', md: 'lg' }, maxW: '28rem' })}>
          {t('poster.instructions')}
        </p>
        <p
          className={css({
            fontSize: 'sm',
            color: '#555',
            _firstLetter: { textTransform: 'uppercase' },
          })}
        >
          {t('poster.validOn', { date })}
        </p>
        <p
          className={css({
            fontSize: 'xs',
            color: '#595959', // 7:1 on white (was #777, 4.47:1)
            wordBreak: 'break-all',
            maxW: '100%',
          })}
        >
          {url}
        </p>
      </article>
    </div>
  );
}
