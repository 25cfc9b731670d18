/**
 * Follow-up notes of a lead (spec §3 Lead note, §4): newest first, deleted notes hidden, each with
 * its author (you, a colleague by name, or the website form); adding and deleting wait for the
 * server (a deleted note is kept there, softly).
 *
 * The lead's own `notas` (spec §3 Lead: written when the lead was registered, by a CRM or a form)
 * is the oldest entry of the same list, "at registration" (issue 19, defect 9): the client's page
 * has one place for notes, not a "Notas" field beside "Notas de seguimiento".
 */

import { useState, type FormEvent } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { css, cva, cx } from 'styled-system/css';
import { LEAD_NOTE_MAX } from '../../../../core/lead';
import type { User } from '../../../../core/types';
import { noteComposerMachine, type AddNoteInput } from '../../../../machines/note-composer.machine';
import { button } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { formatDateTime } from '../../../lib/dates';
import { fieldInput, fieldLabel } from './lead-fields';
import { useAddNote, useDeleteNote, useLeadNotes } from '../api/lead-queries';
import { sectionCard, sectionTitle } from '../utils/lead-styles';

/** A timeline entry's dot on the line: filled for a note, hollow for the registration's note. */
const timelineDot = cva({
  base: {
    position: 'absolute',
    left: '-1.4rem',
    top: '0.35rem',
    w: 3,
    h: 3,
    borderRadius: 'full',
  },
  variants: {
    kind: {
      note: { bg: 'primary' },
      registration: { border: '2px solid', borderColor: 'primary', bg: 'surface' },
    },
  },
});

/** A note's text: its own line breaks kept, a long word wrapped. */
const noteText = css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' });

export function LeadNotes({
  corporateId,
  leadId,
  user,
  readOnly = false,
  registrationNote = null,
}: {
  corporateId: string;
  leadId: string;
  user: User;
  /** The lead is gone: the notes stay readable, nothing can be added or deleted. */
  readOnly?: boolean;
  /** The lead's `notas` and `fechaAlta` (seconds), shown as its first note. */
  registrationNote?: { nota: string; fecha: number } | null;
}) {
  const { t, i18n } = useTranslation('leads');
  const notes = useLeadNotes(corporateId, leadId);
  const add = useAddNote(corporateId, leadId);
  const remove = useDeleteNote(corporateId, leadId);
  // The note whose deletion is being confirmed.
  const [confirming, setConfirming] = useState<string | null>(null);
  // Writing a note is `noteComposerMachine`: one click, one note.
  const composer = useActorRef(
    noteComposerMachine.provide({
      actors: {
        addNote: fromPromise<unknown, AddNoteInput>(({ input }) => add.mutateAsync(input.nota)),
      },
    }),
  );
  const text = useSelector(composer, (s) => s.context.text);
  const error = useSelector(composer, (s) => s.matches({ editing: 'invalid' }));
  const adding = useSelector(composer, (s) => s.hasTag('adding'));
  // Times in the corporate's zone through the app's one formatter (issue 19, defect 8).
  const zone = useCorporateContext().corporate.zonaHoraria || undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    composer.send({ type: 'note.submit' });
  };

  return (
    <section aria-labelledby="lead-notes-title" className={sectionCard}>
      <h3 id="lead-notes-title" className={sectionTitle}>
        {t('notes.title')}
      </h3>
      {readOnly ? null : (
        <form noValidate onSubmit={submit} className={css({ mb: 4 })}>
          <label htmlFor="lead-note-new" className={fieldLabel}>
            {t('notes.new')}
          </label>
          <textarea
            id="lead-note-new"
            rows={3}
            maxLength={LEAD_NOTE_MAX}
            value={text}
            onChange={(e) => composer.send({ type: 'note.change', text: e.target.value })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'lead-note-new-error' : undefined}
            className={cx(fieldInput, css({ py: 2, resize: 'vertical' }))}
          />
          {error ? (
            <p id="lead-note-new-error" className={css({ mt: 1, fontSize: 'sm', color: 'danger' })}>
              {t('validation.noteRequired')}
            </p>
          ) : null}
          <div className={css({ mt: 2, display: 'flex', justifyContent: 'flex-end' })}>
            <button type="submit" className={button()} disabled={adding}>
              {adding ? t('notes.adding') : t('notes.add')}
            </button>
          </div>
        </form>
      )}
      {notes.isPending ? (
        <p className={css({ color: 'muted' })}>{t('notes.loading')}</p>
      ) : (notes.data ?? []).length === 0 && !registrationNote ? (
        <p className={css({ color: 'muted' })}>{t('notes.empty')}</p>
      ) : (
        <ol
          aria-label={t('notes.timeline')}
          className={css({
            listStyle: 'none',
            display: 'flex',
            flexDirection: 'column',
            gap: 3,
            borderLeft: '2px solid token(colors.border)',
            pl: 4,
          })}
        >
          {(notes.data ?? []).map((note) => (
            <li key={note.key} data-testid="lead-note" className={css({ position: 'relative' })}>
              <span aria-hidden="true" className={timelineDot({ kind: 'note' })} />
              <div className={css({ display: 'flex', gap: 2, alignItems: 'baseline' })}>
                <span className={css({ fontSize: 'xs', color: 'muted', flex: 1 })}>
                  {formatDateTime(
                    new Date(note.fechaRegistro * 1000).toISOString(),
                    i18n.language,
                    zone,
                  )}{' '}
                  ·{' '}
                  <span data-testid="lead-note-author">
                    {note.idUsuario === null
                      ? t('notes.byWebsite')
                      : note.idUsuario === user.id
                        ? t('detail.you')
                        : note.nombreUsuario || t('notes.byColleague')}
                  </span>
                </span>
                {readOnly ? null : (
                  <button
                    type="button"
                    className={css({
                      fontSize: 'xs',
                      color: 'danger',
                      cursor: 'pointer',
                      px: 2,
                      minH: 8,
                      borderRadius: 'md',
                      _hover: { bg: 'rgba(198,40,40,0.08)' },
                    })}
                    aria-label={t('notes.deleteLabel', { nota: note.nota.slice(0, 40) })}
                    aria-expanded={confirming === note.key}
                    disabled={remove.isPending}
                    onClick={() => setConfirming(confirming === note.key ? null : note.key)}
                  >
                    {t('notes.delete')}
                  </button>
                )}
              </div>
              {confirming === note.key && !readOnly ? (
                // Deleting asks first (issue 19, defect 9): a note is gone for good.
                <div
                  role="group"
                  aria-label={t('notes.confirmDelete')}
                  data-testid="note-delete-confirm"
                  className={css({
                    display: 'flex',
                    flexWrap: 'wrap',
                    alignItems: 'center',
                    gap: 2,
                    my: 1,
                    p: 2,
                    borderRadius: 'md',
                    bg: 'rgba(198,40,40,0.06)',
                    fontSize: 'sm',
                  })}
                >
                  <span className={css({ flex: 1 })}>{t('notes.confirmDelete')}</span>
                  <button
                    type="button"
                    className={button({ variant: 'ghost' })}
                    onClick={() => setConfirming(null)}
                  >
                    {t('notes.cancelDelete')}
                  </button>
                  <button
                    type="button"
                    className={button()}
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(note.key, { onSuccess: () => setConfirming(null) })
                    }
                  >
                    {t('notes.confirmDeleteYes')}
                  </button>
                </div>
              ) : null}
              <p className={noteText}>{note.nota}</p>
            </li>
          ))}
          {registrationNote ? (
            <li data-testid="lead-registration-note" className={css({ position: 'relative' })}>
              <span aria-hidden="true" className={timelineDot({ kind: 'registration' })} />
              <span className={css({ display: 'block', fontSize: 'xs', color: 'muted' })}>
                {formatDateTime(registrationNote.fecha, i18n.language, zone)} ·{' '}
                {t('notes.atRegistration')}
              </span>
              <p className={noteText}>{registrationNote.nota}</p>
            </li>
          ) : null}
        </ol>
      )}
    </section>
  );
}
