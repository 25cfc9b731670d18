import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { TileMap } from './tile-map';

export function LocationPage() {
  const { t } = useTranslation('inventory');
  const { development } = useDevelopmentContext();
  const { direccion, ciudad, estado, coordenadas } = development.ubicacion;
  const lat = coordenadas._latitude;
  const lng = coordenadas._longitude;
  const osm = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;
  return (
    <div
      className={css({
        display: 'grid',
        gap: 4,
        gridTemplateColumns: { base: '1fr', lg: '1fr 22rem' },
        alignItems: 'start',
      })}
    >
      <TileMap lat={lat} lng={lng} label={development.nombre} />
      <section
        aria-labelledby="location-title"
        className={`${card()} ${css({ p: 5, display: 'flex', flexDirection: 'column', gap: 3 })}`}
      >
        <h2 id="location-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          {t('location.title')}
        </h2>
        <address className={css({ fontStyle: 'normal', lineHeight: 1.6 })}>
          {direccion}
          <br />
          {ciudad}, {estado}
        </address>
        <dl
          className={css({
            fontSize: 'sm',
            display: 'grid',
            gridTemplateColumns: 'auto 1fr',
            gap: '0.25rem 1rem',
          })}
        >
          <dt className={css({ color: 'muted' })}>{t('location.latitude')}</dt>
          <dd className={css({ fontVariantNumeric: 'tabular-nums' })}>{lat.toFixed(5)}</dd>
          <dt className={css({ color: 'muted' })}>{t('location.longitude')}</dt>
          <dd className={css({ fontVariantNumeric: 'tabular-nums' })}>{lng.toFixed(5)}</dd>
        </dl>
        <a
          href={osm}
          target="_blank"
          rel="noopener noreferrer"
          className={css({ color: 'link', fontWeight: 'semibold' })}
        >
          {t('location.openMap')}
        </a>
      </section>
    </div>
  );
}
