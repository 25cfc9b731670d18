/**
 * The shell of a corporate's settings page reached from the settings modal (its labels in
 * English, the legal data on quotations): the title, then the form for the roles that may change
 * it (the server checks again) or why not; the form is an intro that describes it, its fields on
 * a card and the save button, which waits while a save is under way.
 */
import { useId, type FormEvent, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { button, card } from './styles';

/** A settings form's text field. */
export const settingsInput = css({
  w: '100%',
  px: 3,
  py: 2,
  minH: 11,
  border: '1px solid',
  borderColor: 'border',
  borderRadius: 'lg',
  bg: 'surface',
  color: 'text',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
});

const widths = {
  narrow: css({ maxW: '48rem', mx: 'auto' }),
  wide: css({ maxW: '56rem', mx: 'auto' }),
};

export function SettingsPage({
  title,
  width,
  allowed,
  forbidden,
  children,
}: {
  title: string;
  width: keyof typeof widths;
  /** The viewer may change these settings. */
  allowed: boolean;
  /** What a viewer who may not reads instead of the form. */
  forbidden: string;
  children: ReactNode;
}) {
  return (
    <div className={widths[width]}>
      <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: 2 })}>{title}</h2>
      {allowed ? children : <p>{forbidden}</p>}
    </div>
  );
}

export function SettingsForm({
  intro,
  onSubmit,
  saving,
  saveLabel,
  className,
  children,
}: {
  /** The paragraph above the card; it describes the form. */
  intro: ReactNode;
  onSubmit: () => void;
  saving: boolean;
  saveLabel: string;
  /** The card's padding and the gap between its fields. */
  className: string;
  children: ReactNode;
}) {
  const hintId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <>
      <p id={hintId} className={css({ color: 'muted', mb: 6 })}>
        {intro}
      </p>
      <form
        onSubmit={submit}
        aria-describedby={hintId}
        className={cx(card(), css({ display: 'flex', flexDirection: 'column' }), className)}
      >
        {children}
        <div>
          <button type="submit" className={button({ variant: 'primary' })} disabled={saving}>
            {saveLabel}
          </button>
        </div>
      </form>
    </>
  );
}
