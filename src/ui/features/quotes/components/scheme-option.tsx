import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { PaymentScheme } from '../../../../core/types';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { formatPercent } from '../utils/quote-format';

/** One payment scheme as a radio choice: name, discount / down payment / delivery summary. */
export function SchemeOption({
  scheme,
  checked,
  onSelect,
}: {
  scheme: PaymentScheme;
  checked: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation('quotes');
  const corporateLabel = useCorporateLabel();
  return (
    <label
      className={css({
        display: 'flex',
        alignItems: 'flex-start',
        gap: 2,
        p: 3,
        borderRadius: 'lg',
        border: '1px solid token(colors.border)',
        cursor: 'pointer',
        '&:has(input:checked)': { borderColor: 'primary', bg: 'rgba(31,111,235,0.06)' },
      })}
    >
      <input
        type="radio"
        name="scheme"
        value={scheme.id}
        checked={checked}
        onChange={onSelect}
        className={css({ mt: 1 })}
      />
      <span>
        <span className={css({ fontWeight: 'semibold', display: 'block' })}>
          {corporateLabel('esquema', scheme.nombre)}
        </span>
        <span className={css({ fontSize: 'xs', color: 'muted' })}>
          {t('page.schemeSummary', {
            discount: formatPercent(scheme.descuento.porcentaje),
            down: formatPercent(scheme.enganche.porcentaje),
            delivery: formatPercent(scheme.contraEntrega.porcentaje),
          })}
          {scheme.idCluster ? ` · ${t('page.clusterVariant')}` : ''}
        </span>
      </span>
    </label>
  );
}
