/**
 * The lead's fields, editable. The editor keeps the lead as it was loaded (`base`) and sends it
 * as `leadAnterior` with the changed fields. If the stored lead changed meanwhile, the server
 * answers 409 with its current version: the editor shows it field by field beside the user's
 * values and lets the user reapply their changes on top of it or take the stored version —
 * nothing is overwritten silently. While the user has not typed anything, a newer version from
 * the live stream simply replaces the form.
 *
 * The flow (editing → saving → saved / conflict / gone / error) is `leadEditorMachine`; this
 * component renders its state and sends it events. A second click on Save while saving does
 * nothing.
 */

import { useEffect, type FormEvent } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import type { Lead, LeadEditableField } from '../../../../core/lead';
import type { Corporate, LeadStatus } from '../../../../core/types';
import {
  LeadSaveError,
  leadEditorMachine,
  type SaveLeadInput,
} from '../../../../machines/lead-editor.machine';
import { toast } from '../../../lib/toast';
import { button } from '../../../components/styles';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { SelectField, TextField } from './lead-fields';
import {
  changesFrom,
  conflictingFields,
  isLeadTipo,
  leadFieldBinder,
  leadSaveFailure,
  leadTipoOptions,
  type LeadFormValues,
} from '../utils/lead-form';
import { useUpdateLead } from '../api/lead-queries';
import { channelChoices } from '../utils/channel-options';
import { sectionCard, sectionTitle } from '../utils/lead-styles';

export function LeadEditor({
  lead,
  disabled = false,
  corporate,
  statuses,
  developments,
}: {
  lead: Lead;
  /** The lead is gone (deleted meanwhile): the form stays visible, locked. */
  disabled?: boolean;
  corporate: Corporate;
  statuses: LeadStatus[];
  /** The corporate's developments; `campanias` are the campaigns a lead of it can come from. */
  developments: { value: string; label: string; campanias?: string[] }[];
}) {
  const { t } = useTranslation('leads');
  const corporateLabel = useCorporateLabel();
  const update = useUpdateLead(corporate, lead.id);
  const editor = useActorRef(
    leadEditorMachine.provide({
      actors: {
        // The API's errors, read into what the machine acts on.
        saveLead: fromPromise(({ input }: { input: SaveLeadInput }) =>
          update.mutateAsync(input).catch((error: unknown) => {
            throw new LeadSaveError(leadSaveFailure(error));
          }),
        ),
      },
      actions: { notifySaved: () => toast.success(t('editor.saved')) },
    }),
    { input: { lead } },
  );
  const { base, values, errors, conflict, failure } = useSelector(editor, (s) => s.context);
  const saving = useSelector(editor, (s) => s.hasTag('saving'));
  const canSave = useSelector(editor, (s) => s.can({ type: 'editor.save' }));
  const canUndo = useSelector(editor, (s) => s.can({ type: 'editor.cancel' }));
  // Deleted meanwhile: the page says so, or the save found it gone.
  const locked = useSelector(editor, (s) => s.hasTag('locked')) || disabled;

  // A newer version arrived (live stream, another tab's save): the machine takes it while
  // nothing is typed.
  useEffect(() => {
    editor.send({ type: 'editor.leadUpdated', lead });
  }, [editor, lead]);
  useEffect(() => {
    if (disabled) editor.send({ type: 'editor.gone' });
  }, [editor, disabled]);

  const set = (campo: LeadEditableField) => (e: { target: { value: string } }) =>
    editor.send({ type: 'editor.change', campo, value: e.target.value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    editor.send({ type: 'editor.save' });
  };

  // The channel list follows the development chosen in the form (spec §3 `campanias`).
  const development = developments.find((d) => d.value === values.desarrollo);
  const channels = channelChoices({
    channels: corporate.mediosContacto,
    campaigns: development?.campanias,
    current: values.medioContacto,
  });

  const bind = leadFieldBinder(values, errors, set, (campo) => t(`fields.${campo}`));
  const text = (
    campo: LeadEditableField,
    extra: { type?: string; inputMode?: 'email' | 'tel' } = {},
  ) => (
    <TextField
      {...bind(campo)}
      required={campo === 'nombre'}
      aria-required={campo === 'nombre' ? 'true' : undefined}
      autoComplete="off"
      {...extra}
    />
  );

  return (
    <section aria-labelledby="lead-editor-title" className={sectionCard}>
      <h3 id="lead-editor-title" className={sectionTitle}>
        {t('editor.title')}
      </h3>
      {conflict && !locked ? (
        <ConflictPanel
          base={base}
          current={conflict}
          values={values}
          statuses={statuses}
          developments={developments}
          pending={saving}
          onReapply={() => editor.send({ type: 'editor.reapply' })}
          onDiscard={() => editor.send({ type: 'editor.discard' })}
        />
      ) : null}
      <form noValidate onSubmit={submit} aria-label={t('editor.title')}>
        <fieldset disabled={locked} className={css({ border: 'none', p: 0, m: 0, minW: 0 })}>
          <div
            className={css({
              display: 'grid',
              gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
              gap: 4,
            })}
          >
            {text('nombre')}
            {text('apellidos')}
            {text('email', { type: 'email', inputMode: 'email' })}
            {text('telefono', { type: 'tel', inputMode: 'tel' })}
            {text('celular', { type: 'tel', inputMode: 'tel' })}
            <SelectField
              {...bind('tipo')}
              emptyLabel={t('fields.noType')}
              options={leadTipoOptions(values.tipo, (tipo) => t(`tipos.${tipo}`))}
            />
            <SelectField
              {...bind('status')}
              emptyLabel={t('fields.noStatus')}
              options={statuses.map((s) => ({
                value: s.id,
                label: corporateLabel('statusLead', s.nombre),
              }))}
            />
            <SelectField
              {...bind('medioContacto')}
              emptyLabel={t('fields.noChannel')}
              options={channels.channels.map((m) => ({
                value: m,
                label: corporateLabel('medioContacto', m),
              }))}
              groups={[
                {
                  label: development
                    ? t('fields.campaignsOf', { desarrollo: development.label })
                    : t('fields.campaigns'),
                  options: channels.campaigns.map((c) => ({ value: c, label: c })),
                },
              ]}
            />
            <SelectField
              {...bind('desarrollo')}
              emptyLabel={t('fields.noDevelopment')}
              options={developments}
              className={css({ md: { gridColumn: 'span 2' } })}
            />
          </div>
          {failure ? (
            <p role="alert" className={css({ mt: 3, color: 'danger' })}>
              {failure}
            </p>
          ) : null}
          <div className={css({ mt: 4, display: 'flex', justifyContent: 'flex-end', gap: 2 })}>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              disabled={!canUndo}
              onClick={() => editor.send({ type: 'editor.cancel' })}
            >
              {t('editor.reset')}
            </button>
            <button type="submit" className={button()} disabled={!canSave}>
              {saving ? t('editor.saving') : t('editor.save')}
            </button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}

function ConflictPanel({
  base,
  current,
  values,
  statuses,
  developments,
  pending,
  onReapply,
  onDiscard,
}: {
  base: Lead;
  current: Lead;
  values: LeadFormValues;
  statuses: LeadStatus[];
  developments: { value: string; label: string }[];
  pending: boolean;
  onReapply: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation('leads');
  const corporateLabel = useCorporateLabel();
  const mine = Object.keys(changesFrom(base, values)) as LeadEditableField[];
  const theirs = conflictingFields(base, current);
  const fields = [...new Set([...theirs, ...mine])];
  const show = (campo: LeadEditableField, value: string | null) => {
    if (!value) return t('history.empty');
    if (campo === 'status') {
      const nombre = statuses.find((s) => s.id === value)?.nombre;
      return nombre ? corporateLabel('statusLead', nombre) : value;
    }
    if (campo === 'desarrollo') return developments.find((d) => d.value === value)?.label ?? value;
    if (campo === 'medioContacto') return corporateLabel('medioContacto', value);
    if (campo === 'tipo' && isLeadTipo(value)) return t(`tipos.${value}`);
    return value;
  };
  return (
    <div
      role="alert"
      data-testid="lead-conflict"
      className={css({
        mb: 4,
        p: 4,
        borderRadius: 'lg',
        border: '1px solid',
        borderColor: 'highlight',
        bg: 'rgba(252,163,17,0.08)',
      })}
    >
      <p className={css({ fontWeight: 'semibold', mb: 2 })}>{t('editor.conflictTitle')}</p>
      <p className={css({ fontSize: 'sm', mb: 3 })}>{t('editor.conflictBody')}</p>
      <table className={css({ w: '100%', fontSize: 'sm', borderCollapse: 'collapse', mb: 3 })}>
        <thead>
          <tr className={css({ textAlign: 'left', '& th': { py: 1, pr: 3, color: 'muted' } })}>
            <th scope="col">{t('editor.conflictField')}</th>
            <th scope="col">{t('editor.conflictMine')}</th>
            <th scope="col">{t('editor.conflictCurrent')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((campo) => (
            <tr
              key={campo}
              className={css({ '& td, & th': { py: 1, pr: 3, verticalAlign: 'top' } })}
            >
              <th scope="row" className={css({ textAlign: 'left', fontWeight: 'medium' })}>
                {t(`fields.${campo}`)}
              </th>
              <td>
                {mine.includes(campo) ? show(campo, values[campo] || null) : t('editor.unchanged')}
              </td>
              <td>{show(campo, current[campo])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}>
        <button type="button" className={button()} disabled={pending} onClick={onReapply}>
          {t('editor.reapply')}
        </button>
        <button
          type="button"
          className={button({ variant: 'ghost' })}
          disabled={pending}
          onClick={onDiscard}
        >
          {t('editor.discard')}
        </button>
      </div>
    </div>
  );
}
