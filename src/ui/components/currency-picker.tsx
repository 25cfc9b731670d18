import { useId } from 'react';
import { css } from 'styled-system/css';
import type { Currency } from '../../core/types';

/**
 * The compact currency choice of the public pages' header: shown only when the corporate has
 * more than one active currency.
 */
export function CurrencyPicker({
  label,
  value,
  currencies,
  onChange,
}: {
  label: string;
  value: string;
  currencies: readonly Pick<Currency, 'codigo'>[];
  onChange: (codigo: string) => void;
}) {
  const id = useId();
  if (currencies.length <= 1) return null;
  return (
    <label
      htmlFor={id}
      className={css({ display: 'flex', alignItems: 'center', gap: 1, fontSize: 'sm' })}
    >
      {label}
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={css({
          h: 9,
          px: 1,
          borderRadius: 'md',
          border: '1px solid token(colors.border)',
          bg: 'surface',
        })}
      >
        {currencies.map((c) => (
          <option key={c.codigo} value={c.codigo}>
            {c.codigo}
          </option>
        ))}
      </select>
    </label>
  );
}
