import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { allUnits, clustersQuery } from '../../../lib/catalogue';
import { publicDevelopmentPath } from '../../../lib/paths';
import { absoluteUrl, copyLink } from '../../../lib/share-link';
import { actionButton } from './unit-detail';

function ShareRow({ label, url }: { label: string; url: string }) {
  const { t } = useTranslation('inventory');
  const id = useId();
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
      <label htmlFor={id} className={css({ fontWeight: 'semibold' })}>
        {label}
      </label>
      <div className={css({ display: 'flex', gap: 2, flexWrap: 'wrap' })}>
        <input
          id={id}
          readOnly
          value={url}
          className={css({
            flex: 1,
            minW: '16rem',
            h: 10,
            px: 3,
            borderRadius: 'md',
            border: '1px solid token(colors.border)',
            bg: '#f7f9fb',
            fontSize: 'sm',
          })}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className={actionButton}
          data-primary="true"
          onClick={() => void copyLink(url)}
        >
          {t('share.copy')}
        </button>
      </div>
    </div>
  );
}

export function VisualMaterialPage() {
  const { t } = useTranslation('inventory');
  const { corporate, development } = useDevelopmentContext();
  const clusters = useQuery(clustersQuery(corporate.id, development.id));
  const units = useMemo(() => allUnits(clusters.data), [clusters.data]);
  const [unitId, setUnitId] = useState('');
  const selectId = useId();
  const availability = publicDevelopmentPath(corporate.slug, development.slug, 'disponibilidad');
  const unitUrl = unitId
    ? absoluteUrl(`${availability}?unidad=${encodeURIComponent(unitId)}&s=caracteristicas`)
    : '';
  return (
    <section
      aria-labelledby="share-title"
      className={`${card()} ${css({ p: 6, display: 'flex', flexDirection: 'column', gap: 5, maxW: '48rem' })}`}
    >
      <div>
        <h2 id="share-title" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
          {t('share.title')}
        </h2>
        <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('share.help')}</p>
      </div>
      <ShareRow
        label={t('share.development', { name: development.nombre })}
        url={absoluteUrl(availability)}
      />
      <div className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
        <label htmlFor={selectId} className={css({ fontWeight: 'semibold' })}>
          {t('share.chooseUnit')}
        </label>
        <select
          id={selectId}
          value={unitId}
          onChange={(e) => setUnitId(e.target.value)}
          className={css({
            h: 10,
            px: 2,
            borderRadius: 'md',
            border: '1px solid token(colors.border)',
            bg: 'surface',
            maxW: '20rem',
          })}
        >
          <option value="">{t('share.noUnit')}</option>
          {units.map((u) => (
            <option key={u.id} value={u.id}>
              {u.nombre}
            </option>
          ))}
        </select>
      </div>
      {unitId ? (
        <ShareRow
          label={t('share.unit', { name: units.find((u) => u.id === unitId)?.nombre ?? '' })}
          url={unitUrl}
        />
      ) : null}
    </section>
  );
}
