/**
 * A lead chosen by searching the server as one types (issue 21): an input with the combobox role
 * and its list of leads (WAI-ARIA combobox with a listbox popup). Arrow keys move through the
 * leads, Enter picks one, Escape closes the list and gives the input back the chosen lead's
 * name. A blank input lists the newest leads; typing searches all of them (name, surname, e-mail,
 * phone: the server's `q`), a quarter of a second after the last key. A line under the input
 * says what the list holds (searching, nothing found, only the first leads), read out politely.
 */

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import {
  LEAD_PICKER_LIMIT,
  LEAD_SEARCH_DEBOUNCE_MS,
  leadPickerQuery,
  type PickableLead,
} from '../lib/lead-search';
import { useDebounced } from '../lib/use-debounced';

export const leadFullName = (lead: Pick<PickableLead, 'nombre' | 'apellidos'>) =>
  `${lead.nombre} ${lead.apellidos ?? ''}`.trim();

const popup = css({
  position: 'absolute',
  zIndex: 20,
  top: '100%',
  left: 0,
  right: 0,
  mt: 1,
  maxH: '16rem',
  overflowY: 'auto',
  bg: 'surface',
  border: '1px solid token(colors.border)',
  borderRadius: 'md',
  boxShadow: 'md',
  listStyle: 'none',
  p: 1,
  m: 0,
});

const option = css({
  display: 'flex',
  flexDirection: 'column',
  px: 2,
  py: 1.5,
  borderRadius: 'sm',
  cursor: 'pointer',
  fontSize: 'sm',
  minW: 0,
  '&[aria-selected="true"]': { bg: 'rgba(0,0,0,0.08)', outline: '2px solid token(colors.link)' },
  _hover: { bg: 'rgba(0,0,0,0.05)' },
});

const ellipsis = css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

/**
 * What the line under the input says about the list. Nothing found is said only of an answered
 * search for typed text: before the first answer it is searching, and a blank input with no leads
 * listed is a hint to type, never "no matches".
 */
export function statusKey(
  state: { pending: boolean; error: boolean; fetching: boolean },
  query: string,
  count: number,
): string {
  if (state.error) return 'picker.failed';
  if (state.pending || state.fetching) return 'picker.searching';
  if (!query) return count === 0 ? 'picker.hint' : 'picker.typeToSearch';
  if (count === 0) return 'picker.none';
  return count >= LEAD_PICKER_LIMIT ? 'picker.more' : 'picker.found';
}

export function LeadPicker({
  id,
  idCorporativo,
  selected,
  onSelect,
  inputClassName,
  className,
  disabled = false,
}: {
  /** The input's id, for the caller's `<label htmlFor>`. */
  id: string;
  idCorporativo: string;
  /** The lead chosen (shown in the input while it is not being edited). */
  selected: PickableLead | null;
  onSelect: (lead: PickableLead) => void;
  inputClassName?: string;
  className?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('leads');
  const listId = useId();
  const statusId = useId();
  const [open, setOpen] = useState(false);
  /** What the user typed; null while the input shows the chosen lead. */
  const [typed, setTyped] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const query = useDebounced((typed ?? '').trim(), LEAD_SEARCH_DEBOUNCE_MS);
  const results = useQuery({
    ...leadPickerQuery(idCorporativo, query),
    enabled: open && !disabled,
    // The last answer stays listed while the next one comes, instead of an empty flash.
    placeholderData: keepPreviousData,
  });
  const leads = results.data ?? [];

  // A new answer starts the keyboard's position over.
  useEffect(() => setActive(-1), [results.data]);
  useEffect(() => {
    if (active >= 0)
      document.getElementById(`${listId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listId]);

  const close = () => {
    setOpen(false);
    setTyped(null);
    setActive(-1);
  };
  const pick = (lead: PickableLead) => {
    onSelect(lead);
    close();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        return;
      }
      const last = leads.length - 1;
      setActive((i) => (e.key === 'ArrowDown' ? Math.min(i + 1, last) : Math.max(i - 1, 0)));
    } else if (e.key === 'Enter' && open) {
      // Enter picks in the list; it never submits the form around it.
      e.preventDefault();
      const lead = leads[active] ?? (leads.length === 1 ? leads[0] : undefined);
      if (lead) pick(lead);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };

  const status = t(
    statusKey(
      {
        pending: results.isPending,
        error: results.isError,
        fetching: results.isPlaceholderData || query !== (typed ?? '').trim(),
      },
      query,
      leads.length,
    ),
    { query, count: leads.length },
  );

  return (
    <div className={cx(css({ position: 'relative', minW: 0 }), className)}>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-describedby={open ? statusId : undefined}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder={t('picker.placeholder')}
        className={inputClassName}
        disabled={disabled}
        value={typed ?? (selected ? leadFullName(selected) : '')}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={close}
        onChange={(e) => {
          setTyped(e.target.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <div className={popup}>
          <p
            id={statusId}
            role="status"
            className={css({ fontSize: 'xs', color: 'muted', px: 2, py: 1, m: 0 })}
          >
            {status}
          </p>
          <ul
            id={listId}
            role="listbox"
            aria-label={t('picker.listLabel')}
            className={css({ listStyle: 'none', m: 0, p: 0 })}
          >
            {leads.map((lead, index) => (
              <li
                key={lead.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={option}
                // Keeps the focus in the input, so the blur does not close the list first.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(lead)}
              >
                <span className={cx(ellipsis, css({ fontWeight: 'medium' }))}>
                  {leadFullName(lead)}
                </span>
                {lead.email ? (
                  <span className={cx(ellipsis, css({ color: 'muted', fontSize: 'xs' }))}>
                    {lead.email}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
