/**
 * The detail of a selected unit: characteristics, areas in the chosen unit, the price only
 * when its status lets it show (in the chosen currency), the prototype, and the actions —
 * quote (when quotable), compare, share — plus, for inventory administrators, the status and
 * price changes and the unit's history.
 */

import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from 'i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { css } from 'styled-system/css';
import { bathroomCount } from '../../../../core/filters';
import { formatMoney, moneyFromMajor } from '../../../../core/money';
import { UNIT_STATUSES, type StatusColors, type Unit } from '../../../../core/types';
import { api } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { AppLink } from '../../../components/app-link';
import {
  comparator,
  COMPARATOR_MAX,
  useComparator,
  type ComparatorItem,
  type ComparatorScope,
} from '../utils/comparator-store';
import { formatAreaIn, formatPrice, type Display } from '../../../lib/figures';
import { historyQuery, unitView } from '../../../lib/catalogue';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { useOptionalCorporateContext } from '../../../layouts/corporate-context';
import { useDateFormat } from '../../../lib/dates';
import { textOn } from '../../../theme/contrast';
import { parseAdminPrice } from '../utils/admin-price';
import { applyLiveChange } from '../../../lib/live-stream';
import { copyLink } from '../../../lib/share-link';
import { HoldSummary, UnitHoldPanel, type HoldViewer } from './unit-hold';
import { placeText } from '../../../lib/unit-place';
import { unitPlace } from '../../../../core/site-plan';

export const actionButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 2,
  h: 10,
  px: 4,
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'semibold',
  cursor: 'pointer',
  border: '1px solid token(colors.border)',
  bg: 'surface',
  color: 'text',
  textDecoration: 'none',
  _hover: { borderColor: 'primary' },
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
  _disabled: { opacity: 0.5, cursor: 'not-allowed' },
  '&[data-primary="true"]': { bg: 'primary', color: 'primaryText', borderColor: 'primary' },
});

/** A status as the corporate names it in the interface's language (issue 19). */
function StatusName({ value }: { value: string }) {
  return <>{useCorporateLabel()('status', value)}</>;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      className={css({
        display: 'flex',
        justifyContent: 'space-between',
        gap: 3,
        py: 1.5,
        borderBottom: '1px solid token(colors.border)',
      })}
    >
      <dt className={css({ color: 'muted', fontSize: 'sm' })}>{label}</dt>
      <dd
        className={css({
          fontWeight: 'medium',
          fontSize: 'sm',
          textAlign: 'right',
          fontVariantNumeric: 'tabular-nums',
        })}
      >
        {children}
      </dd>
    </div>
  );
}

/** A unit as the comparator keeps it: what identifies it, nothing that changes. */
export function comparatorItemOf(unit: Pick<Unit, 'id' | 'nombre'>): ComparatorItem {
  return { tipo: 'unidad', id: unit.id, nombre: unit.nombre };
}

/** Adds to a development's comparator with the matching toast. */
export function addToComparator(scope: ComparatorScope, item: ComparatorItem) {
  const result = comparator.add(scope, item);
  if (result === 'added')
    toast.success(i18n.t('inventory:comparator.added', { name: item.nombre }));
  else if (result === 'full')
    toast.error(i18n.t('inventory:comparator.full', { max: COMPARATOR_MAX }));
}

function AdminSection({
  unit,
  idCorporativo,
  display,
}: {
  unit: Unit;
  idCorporativo: string;
  display: Display;
}) {
  const { t } = useTranslation('inventory');
  const client = useQueryClient();
  const [status, setStatus] = useState(unit.status ?? 'Sin Estatus');
  const [price, setPrice] = useState(String(unit.precio));
  const parsedPrice = parseAdminPrice(price);
  useEffect(() => {
    setStatus(unit.status ?? 'Sin Estatus');
    setPrice(String(unit.precio));
  }, [unit.id, unit.status, unit.precio]);
  const history = useQuery(historyQuery(idCorporativo, unit.id));
  const formatDate = useDateFormat(useOptionalCorporateContext()?.corporate.zonaHoraria);
  const onSaved = (updated: Unit, type: 'UnitStatusChanged' | 'UnitPriceChanged') => {
    applyLiveChange(client, {
      type,
      corporateId: idCorporativo,
      idUnidad: updated.id,
      ...(type === 'UnitStatusChanged'
        ? { status: updated.status ?? '' }
        : { precio: updated.precio }),
    });
    toast.success(t('admin.saved'));
  };
  const saveStatus = useMutation({
    mutationFn: () =>
      api<Unit>(`/api/corporativos/${idCorporativo}/unidades/${unit.id}/status`, {
        method: 'PUT',
        // What the administrator saw: a change made meanwhile answers 409 instead of being undone.
        body: { status, statusAnterior: unit.status ?? null },
      }),
    onSuccess: (u) => onSaved(u, 'UnitStatusChanged'),
  });
  const savePrice = useMutation({
    mutationFn: (precio: number) =>
      api<Unit>(`/api/corporativos/${idCorporativo}/unidades/${unit.id}/precio`, {
        method: 'PUT',
        body: { precio, precioAnterior: unit.precio },
      }),
    onSuccess: (u) => onSaved(u, 'UnitPriceChanged'),
  });
  const field = css({
    flex: 1,
    minW: 0,
    h: 10,
    px: 2,
    borderRadius: 'md',
    border: '1px solid token(colors.border)',
    bg: 'surface',
    fontSize: 'sm',
  });
  // The detail is narrow beside the table: the field gives way, the button keeps its line.
  const save = `${actionButton} ${css({ flexShrink: 0, whiteSpace: 'nowrap' })}`;
  const statusId = useId();
  const priceId = useId();
  const priceErrorId = useId();
  const currency = unit.divisa ?? 'MXN';
  return (
    <section
      aria-label={t('admin.title')}
      className={css({ display: 'flex', flexDirection: 'column', gap: 3, pt: 2 })}
    >
      <h3 className={css({ fontWeight: 'bold' })}>{t('admin.title')}</h3>
      <label htmlFor={statusId} className={css({ fontSize: 'sm', color: 'muted' })}>
        {t('admin.status')}
      </label>
      <div className={css({ display: 'flex', gap: 2 })}>
        <select
          id={statusId}
          className={field}
          value={status}
          onChange={(e) => setStatus(e.target.value)}
        >
          {UNIT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button
          type="button"
          className={save}
          data-primary="true"
          disabled={saveStatus.isPending || status === (unit.status ?? 'Sin Estatus')}
          onClick={() => saveStatus.mutate()}
        >
          {t('admin.saveStatus')}
        </button>
      </div>
      <label htmlFor={priceId} className={css({ fontSize: 'sm', color: 'muted' })}>
        {t('admin.price', { currency })}
      </label>
      <div className={css({ display: 'flex', gap: 2 })}>
        <input
          id={priceId}
          className={field}
          inputMode="decimal"
          value={price}
          aria-invalid={!parsedPrice.ok}
          aria-describedby={parsedPrice.ok ? undefined : priceErrorId}
          onChange={(e) => setPrice(e.target.value)}
        />
        <button
          type="button"
          className={save}
          data-primary="true"
          disabled={savePrice.isPending || !parsedPrice.ok || parsedPrice.precio === unit.precio}
          onClick={() => {
            if (parsedPrice.ok) savePrice.mutate(parsedPrice.precio);
          }}
        >
          {t('admin.savePrice')}
        </button>
      </div>
      {parsedPrice.ok ? null : (
        <p id={priceErrorId} role="alert" className={css({ fontSize: 'sm', color: 'danger' })}>
          {parsedPrice.reason === 'max'
            ? t('admin.priceTooHigh', {
                max: `${formatMoney(moneyFromMajor(parsedPrice.max))} ${currency}`,
              })
            : t('admin.priceInvalid')}
        </p>
      )}
      <h4 className={css({ fontWeight: 'semibold', mt: 2 })}>{t('admin.history')}</h4>
      {history.isPending ? (
        <p className={css({ fontSize: 'sm', color: 'muted' })}>{t('common:loading')}</p>
      ) : history.isError ? (
        <p className={css({ fontSize: 'sm', color: 'danger' })}>{t('admin.historyError')}</p>
      ) : (
        <ol
          aria-label={t('admin.history')}
          className={css({
            listStyle: 'none',
            p: 0,
            display: 'flex',
            flexDirection: 'column',
            gap: 2,
          })}
        >
          {history.data.map((h, i) => (
            <li
              key={`${h.fecha}-${i}`}
              className={css({
                fontSize: 'sm',
                borderLeft: '3px solid token(colors.border)',
                pl: 2,
              })}
            >
              <div className={css({ color: 'muted', fontSize: 'xs' })}>
                {formatDate(new Date(h.fecha), 'dateTime')} · {h.actor}
              </div>
              <div>
                {h.tipo === 'UnitListed'
                  ? t('admin.listed', { status: h.nuevo ?? '—' })
                  : h.campo === 'precio'
                    ? t('admin.priceChange', {
                        from:
                          typeof h.anterior === 'number'
                            ? formatPrice(h.anterior, display, unit.divisa)
                            : '—',
                        to:
                          typeof h.nuevo === 'number'
                            ? formatPrice(h.nuevo, display, unit.divisa)
                            : '—',
                      })
                    : t('admin.statusChange', { from: h.anterior ?? '—', to: h.nuevo ?? '—' })}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function CompareButton({
  unit,
  scope,
}: {
  unit: Pick<Unit, 'id' | 'nombre'>;
  scope: ComparatorScope;
}) {
  const { t } = useTranslation('inventory');
  const items = useComparator(scope);
  const inComparator = items.some((i) => i.tipo === 'unidad' && i.id === unit.id);
  return (
    <button
      type="button"
      className={actionButton}
      disabled={inComparator}
      onClick={() => addToComparator(scope, comparatorItemOf(unit))}
    >
      {inComparator ? t('detail.inComparator') : t('detail.compare')}
    </button>
  );
}

export function UnitDetail({
  unit,
  colors,
  display,
  prototypeName,
  developmentName,
  quoteHref,
  shareUrl,
  admin,
  holds,
  comparatorScope,
  features = [],
  cluster,
  onClose,
}: {
  unit: Unit;
  colors: StatusColors;
  display: Display;
  prototypeName?: string | undefined;
  developmentName: string;
  /** Where "Cotizar" goes; absent for visitors. */
  quoteHref?: string | undefined;
  shareUrl: string;
  /** The corporate id when the viewer administers the inventory. */
  admin?: { idCorporativo: string } | undefined;
  /** The signed-in viewer's hold actions; absent for visitors. */
  holds?: HoldViewer | undefined;
  /** The development's comparator; absent for visitors, who have no comparator page. */
  comparatorScope?: ComparatorScope | undefined;
  /** The development's unit features (core/development-settings.ts `unitFeaturesOf`). */
  features?: readonly string[];
  /** The unit's tower or stage: a house's street is named by its stage. */
  cluster?: { calles?: readonly string[] | null } | undefined;
  onClose: () => void;
}) {
  const featuresId = useId();
  const { t } = useTranslation('inventory');
  const headingId = useId();
  const view = unitView(unit, colors);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    panel.current?.focus();
  }, [unit.id]);
  // Closing (Escape or ✕) returns focus to the unit's cell or row it was opened from (WCAG
  // 2.4.3), once the grid has re-rendered without the selection.
  const closeToUnit = useCallback(() => {
    onClose();
    requestAnimationFrame(() => {
      const id = CSS.escape(unit.id);
      document
        .querySelector<HTMLElement>(`[data-unit-id="${id}"], [data-unit-row="${id}"]`)
        ?.focus();
    });
  }, [onClose, unit.id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) closeToUnit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [closeToUnit]);
  const c = unit.caracteristicas;
  const m = unit.metrajes;
  const areas: [string, number | undefined][] = [
    ['areaTotal', m.areaTotal],
    ['areaInterior', m.areaInterior],
    ['areaBalcon', m.areaBalcon],
    ['terraza', m.terraza],
    ['roofGarden', m.roofGarden],
  ];
  return (
    <section
      ref={panel}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-testid="unit-detail"
      className={css({
        bg: 'surface',
        border: '1px solid token(colors.border)',
        borderRadius: 'xl',
        boxShadow: '0 12px 32px rgba(16,24,40,0.12)',
        p: 5,
        display: 'flex',
        flexDirection: 'column',
        gap: 3,
        outline: 'none',
      })}
    >
      <header className={css({ display: 'flex', alignItems: 'flex-start', gap: 3 })}>
        <div className={css({ flex: 1 })}>
          <p className={css({ fontSize: 'xs', color: 'muted' })}>{developmentName}</p>
          <h2 id={headingId} className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
            {t('detail.title', { name: unit.nombre })}
          </h2>
        </div>
        <button
          type="button"
          className={actionButton}
          aria-label={t('detail.close')}
          onClick={closeToUnit}
        >
          ✕
        </button>
      </header>
      <div className={css({ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' })}>
        <span
          className={css({
            px: 3,
            py: 1,
            borderRadius: 'full',
            fontSize: 'sm',
            fontWeight: 'semibold',
          })}
          style={{ background: view.hexColor, color: textOn(view.hexColor) }}
        >
          <StatusName value={view.disponibilidad} />
        </span>
        <span className={css({ fontSize: 'sm', color: 'muted' })}>
          {placeText(unitPlace(unit, cluster), {
            street: (number) => t('grid.street', { number }),
            level: (level) => t('detail.level', { level }),
          })}
        </span>
      </div>
      {unit.apartado ? <HoldSummary apartado={unit.apartado} /> : null}
      {holds ? <UnitHoldPanel unit={unit} viewer={holds} buttonClass={actionButton} /> : null}
      <p className={css({ fontSize: '2xl', fontWeight: 'bold' })} data-testid="unit-price">
        {view.priceVisible && unit.precio > 0
          ? formatPrice(unit.precio, display, unit.divisa)
          : t('detail.priceHidden')}
      </p>
      <dl>
        <Row label={t('detail.prototype')}>{prototypeName ?? '—'}</Row>
        <Row label={t('detail.bedrooms')}>{c.recamaras}</Row>
        <Row label={t('detail.bathrooms')}>
          {c.baniosMedios > 0
            ? t('detail.bathroomsWithHalf', {
                full: t('detail.fullBathrooms', { count: c.banios }),
                half: t('detail.halfBathrooms', { count: c.baniosMedios }),
              })
            : c.banios}
        </Row>
        <Row label={t('detail.bathroomsTotal')}>{bathroomCount(c)}</Row>
        <Row label={t('detail.parking')}>{c.cajones}</Row>
        {areas
          .filter(([, v]) => typeof v === 'number' && v > 0)
          .map(([key, v]) => (
            <Row key={key} label={t(`detail.areas.${key}`)}>
              {formatAreaIn(v, display)}
            </Row>
          ))}
      </dl>
      {features.length > 0 ? (
        <div data-testid="unit-features">
          <h3
            id={featuresId}
            className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'muted', mb: 1.5 })}
          >
            {t('detail.features')}
          </h3>
          <ul
            aria-labelledby={featuresId}
            className={css({
              listStyle: 'none',
              p: 0,
              display: 'flex',
              flexWrap: 'wrap',
              gap: 1.5,
            })}
          >
            {features.map((f) => (
              <li
                key={f}
                className={css({
                  px: 2.5,
                  py: 0.5,
                  borderRadius: 'full',
                  border: '1px solid token(colors.border)',
                  bg: 'bg',
                  fontSize: 'sm',
                })}
              >
                {f}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}>
        {quoteHref && view.quotable ? (
          <AppLink href={quoteHref} className={actionButton} data-primary="true">
            {t('detail.quote')}
          </AppLink>
        ) : null}
        {comparatorScope ? <CompareButton unit={unit} scope={comparatorScope} /> : null}
        <button type="button" className={actionButton} onClick={() => void copyLink(shareUrl)}>
          {t('detail.share')}
        </button>
      </div>
      {admin ? (
        <AdminSection unit={unit} idCorporativo={admin.idCorporativo} display={display} />
      ) : null}
    </section>
  );
}
