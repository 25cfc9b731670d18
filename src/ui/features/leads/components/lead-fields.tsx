/**
 * Labelled inputs of the lead forms: the error sits right under its field, in the interface's
 * language, tied to the input with `aria-describedby` and `aria-invalid`. `large` gives the
 * tablet-sized touch targets of the showroom registration (56 px).
 */

import { useId, type InputHTMLAttributes, type SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { SystemStyleObject } from 'styled-system/types';
import type { LeadFieldError } from '../utils/lead-form';

export const fieldLabel = css({ display: 'block', fontSize: 'sm', fontWeight: 'semibold', mb: 1 });

/** The inputs' look as a style object, for `css(fieldInputStyle, { …overrides })`. */
export const fieldInputStyle: SystemStyleObject = {
  w: '100%',
  minH: 11,
  px: 3,
  borderRadius: 'lg',
  border: '1px solid',
  borderColor: 'border',
  bg: 'surface',
  color: 'text',
  fontSize: 'md',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '1px' },
  '&[aria-invalid="true"]': { borderColor: 'danger' },
  // A locked form (a lead deleted while open) must look locked, not merely refuse typing.
  _disabled: { bg: 'rgba(0,0,0,0.04)', color: 'muted', cursor: 'not-allowed' },
};

export const fieldInput = css(fieldInputStyle);

// Merged with css(), not cx(): atomic classes of the same property would fight by CSS order.
const largeInput = css(fieldInputStyle, { minH: 14, fontSize: 'lg', px: 4 });

const errorText = css({ mt: 1, fontSize: 'sm', color: 'danger', fontWeight: 'medium' });

function FieldError({ id, error }: { id: string; error?: LeadFieldError | null }) {
  const { t } = useTranslation('leads');
  if (!error) return null;
  return (
    <p id={id} className={errorText}>
      {t(`validation.${error}`)}
    </p>
  );
}

interface CommonProps {
  label: string;
  error?: LeadFieldError | null;
  large?: boolean;
  hint?: string;
}

export function TextField({
  label,
  error,
  large,
  hint,
  className,
  ...input
}: CommonProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className={fieldLabel}>
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={large ? largeInput : fieldInput}
        {...input}
      />
      {hint ? (
        <p id={hintId} className={css({ mt: 1, fontSize: 'xs', color: 'muted' })}>
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

export function SelectField({
  label,
  error,
  large,
  className,
  options,
  groups = [],
  emptyLabel,
  ...select
}: CommonProps &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: { value: string; label: string }[];
    /** Further choices under a heading each (`<optgroup>`), after `options`; empty ones omitted. */
    groups?: { label: string; options: { value: string; label: string }[] }[];
    /** The label of the empty choice; none when omitted. */
    emptyLabel?: string;
  }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className={fieldLabel}>
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={large ? largeInput : fieldInput}
        {...select}
      >
        {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {groups
          .filter((g) => g.options.length > 0)
          .map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          ))}
      </select>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
