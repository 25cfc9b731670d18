/**
 * The availability filters (spec §5): bedrooms, bathrooms (half-baths count 0.5), parking
 * (4 meaning 4+), price range in the chosen currency, area range in the chosen unit, prototype
 * and status. The form keeps what the user typed; `toUnitFilters` turns it into the core's
 * `UnitFilters` (MXN, m²) that the worker evaluates.
 */

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { OR_MORE_VALUE, rangeProblem } from '../../../../core/filters';
import type { StatusSummary } from '../../../../core/display-rows';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { type Display } from '../../../lib/figures';
import { EMPTY_FORM, type FilterForm } from '../utils/filter-form';
import { BATHROOM_OPTIONS, BEDROOM_OPTIONS, PARKING_OPTIONS } from '../utils/filter-search';

const toggle = <T,>(list: readonly T[], value: T): T[] =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

const chip = css({
  minW: 10,
  h: 9,
  px: 3,
  borderRadius: 'full',
  border: '1px solid token(colors.border)',
  bg: 'surface',
  fontSize: 'sm',
  cursor: 'pointer',
  _hover: { borderColor: 'primary' },
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '2px' },
  '&[aria-pressed="true"]': { bg: 'primary', color: 'primaryText', borderColor: 'primary' },
});

const groupLabel = css({
  fontSize: 'xs',
  fontWeight: 'semibold',
  textTransform: 'uppercase',
  letterSpacing: '0.04em',
  color: 'muted',
  mb: 1.5,
});

const input = css({
  w: '100%',
  h: 9,
  px: 2,
  borderRadius: 'md',
  border: '1px solid token(colors.border)',
  bg: 'surface',
  fontSize: 'sm',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
});

function ChipGroup({
  label,
  options,
  selected,
  onChange,
  format,
}: {
  label: string;
  options: number[];
  selected: number[];
  onChange: (next: number[]) => void;
  format: (v: number) => string;
}) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id}>
      <div id={id} className={groupLabel}>
        {label}
      </div>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 1.5 })}>
        {options.map((o) => (
          <button
            key={o}
            type="button"
            className={chip}
            aria-pressed={selected.includes(o)}
            onClick={() => onChange(toggle(selected, o))}
          >
            {format(o)}
          </button>
        ))}
      </div>
    </div>
  );
}

function Range({
  label,
  minLabel,
  maxLabel,
  unit,
  min,
  max,
  onChange,
}: {
  label: string;
  /** The bounds' own names ("Superficie mínima": the adjective agrees with the noun). */
  minLabel: string;
  maxLabel: string;
  unit: string;
  min: string;
  max: string;
  onChange: (min: string, max: string) => void;
}) {
  const { t } = useTranslation('inventory');
  const id = useId();
  const problemId = useId();
  // Letters in a bound, or a minimum above the maximum, are said under the range (the worker
  // ignores a bound that is not a number; issue 19, defect 3).
  const problem = rangeProblem(min, max);
  const invalid = problem === null ? undefined : true;
  return (
    <div role="group" aria-labelledby={id}>
      <div id={id} className={groupLabel}>
        {label} <span className={css({ textTransform: 'none' })}>({unit})</span>
      </div>
      <div className={css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 })}>
        <input
          className={input}
          inputMode="decimal"
          aria-label={minLabel}
          aria-invalid={invalid}
          aria-describedby={problem ? problemId : undefined}
          placeholder={t('filters.min')}
          value={min}
          onChange={(e) => onChange(e.target.value, max)}
        />
        <input
          className={input}
          inputMode="decimal"
          aria-label={maxLabel}
          aria-invalid={invalid}
          aria-describedby={problem ? problemId : undefined}
          placeholder={t('filters.max')}
          value={max}
          onChange={(e) => onChange(min, e.target.value)}
        />
      </div>
      {problem ? (
        <p
          id={problemId}
          role="alert"
          data-testid="range-problem"
          className={css({ mt: 1, fontSize: 'xs', color: 'danger' })}
        >
          {t(`filters.rangeProblem.${problem}`)}
        </p>
      ) : null}
    </div>
  );
}

export function FilterPanel({
  form,
  onChange,
  prototypes,
  statuses: summaries,
  display,
  matchCount,
  hiddenPriceCount = 0,
  total,
  pending,
}: {
  form: FilterForm;
  onChange: (next: FilterForm) => void;
  prototypes: readonly { id: string; nombre: string }[];
  /**
   * The statuses with their labels and colours, from the display rows the core worker builds
   * (null until they arrive); the filter offers those the colour map has.
   */
  statuses: readonly StatusSummary[] | null;
  display: Display;
  matchCount: number | null;
  /**
   * Of `matchCount`, the units matched only because their price is hidden (the spec's rule skips
   * the range criteria for them); said apart, not counted as matches.
   */
  hiddenPriceCount?: number;
  total: number;
  pending: boolean;
}) {
  const { t } = useTranslation('inventory');
  const corporateLabel = useCorporateLabel();
  const orMore = (v: number) =>
    v === OR_MORE_VALUE ? t('filters.orMore', { value: v }) : String(v);
  const set = (patch: Partial<FilterForm>) => onChange({ ...form, ...patch });
  const statuses = (summaries ?? []).filter((s) => s.known);
  const protoId = useId();
  const statusId = useId();
  return (
    <form
      aria-label={t('filters.title')}
      onSubmit={(e) => e.preventDefault()}
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: 4,
        bg: 'surface',
        border: '1px solid token(colors.border)',
        borderRadius: 'xl',
        p: 4,
      })}
    >
      <div
        className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' })}
      >
        {/* Below lg the disclosure's button above the panel is the heading. */}
        <h2 className={css({ fontWeight: 'bold', display: { base: 'none', lg: 'block' } })}>
          {t('filters.title')}
        </h2>
        <button
          type="button"
          className={css({
            ml: 'auto',
            fontSize: 'sm',
            color: 'link',
            cursor: 'pointer',
            _hover: { textDecoration: 'underline' },
          })}
          onClick={() => onChange(EMPTY_FORM)}
        >
          {t('filters.clear')}
        </button>
      </div>
      <p
        role="status"
        aria-live="polite"
        data-pending={pending ? 'true' : 'false'}
        className={css({ fontSize: 'sm', color: 'muted' })}
      >
        {matchCount === null
          ? t('filters.computing')
          : hiddenPriceCount > 0
            ? t('filters.matchingWithHidden', {
                count: matchCount - hiddenPriceCount,
                total,
                hidden: hiddenPriceCount,
              })
            : t('filters.matching', { count: matchCount, total })}
      </p>
      <ChipGroup
        label={t('filters.bedrooms')}
        options={BEDROOM_OPTIONS}
        selected={form.recamaras}
        onChange={(recamaras) => set({ recamaras })}
        format={orMore}
      />
      <ChipGroup
        label={t('filters.bathrooms')}
        options={BATHROOM_OPTIONS}
        selected={form.banios}
        onChange={(banios) => set({ banios })}
        format={orMore}
      />
      <ChipGroup
        label={t('filters.parking')}
        options={PARKING_OPTIONS}
        selected={form.cajones}
        onChange={(cajones) => set({ cajones })}
        format={orMore}
      />
      <Range
        label={t('filters.price')}
        minLabel={t('filters.priceMin')}
        maxLabel={t('filters.priceMax')}
        unit={display.currency.codigo}
        min={form.precioMin}
        max={form.precioMax}
        onChange={(precioMin, precioMax) => set({ precioMin, precioMax })}
      />
      <Range
        label={t('filters.area')}
        minLabel={t('filters.areaMin')}
        maxLabel={t('filters.areaMax')}
        unit={display.areaUnit === 'ft2' ? 'ft²' : 'm²'}
        min={form.areaMin}
        max={form.areaMax}
        onChange={(areaMin, areaMax) => set({ areaMin, areaMax })}
      />
      {prototypes.length > 0 ? (
        <fieldset className={css({ border: 0, p: 0, m: 0 })} aria-labelledby={protoId}>
          <div id={protoId} className={groupLabel}>
            {t('filters.prototype')}
          </div>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: 1 })}>
            {prototypes.map((p) => (
              <label
                key={p.id}
                className={css({ display: 'flex', gap: 2, alignItems: 'center', fontSize: 'sm' })}
              >
                <input
                  type="checkbox"
                  checked={form.idPrototipo.includes(p.id)}
                  onChange={() => set({ idPrototipo: toggle(form.idPrototipo, p.id) })}
                />
                {p.nombre}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <fieldset className={css({ border: 0, p: 0, m: 0 })} aria-labelledby={statusId}>
        <div id={statusId} className={groupLabel}>
          {t('filters.status')}
        </div>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: 1 })}>
          {statuses.map((info) => {
            const s = info.status;
            return (
              <label
                key={s}
                className={css({ display: 'flex', gap: 2, alignItems: 'center', fontSize: 'sm' })}
              >
                <input
                  type="checkbox"
                  checked={form.status.includes(s)}
                  onChange={() => set({ status: toggle(form.status, s) })}
                />
                <span
                  aria-hidden="true"
                  className={css({ w: 2.5, h: 2.5, borderRadius: 'full' })}
                  style={{ background: info.hexColor }}
                />
                {corporateLabel('status', info.label)}
              </label>
            );
          })}
        </div>
      </fieldset>
    </form>
  );
}
