/**
 * Saving a quotation to a lead (issue 7): the pinned lead by default, or one chosen from the
 * adviser's leads (searched on the server as they type: any of them, however many, issue 21),
 * or a new lead created on the spot (one atomic call on the server). Once
 * saved: a link to the lead, the favourite toggle and the share link (copied with the spec's
 * toasts, §8), with the quotation's links listed below it to revoke one.
 */

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import { quotationFolio, type Quotation } from '../../../../core/quotation';
import type { Corporate } from '../../../../core/types';
import {
  effectiveMode,
  listChoice,
  saveQuotationMachine,
  SaveQuotationError,
  type ClientChoice,
  type DuplicateClient as DuplicateClientAnswer,
  type NewClient,
  type SaveQuotationActorInput,
} from '../../../../machines/save-quotation.machine';
import { AppLink } from '../../../components/app-link';
import { LeadPicker, leadFullName as fullName } from '../../../components/lead-picker';
import { StarIcon } from '../../../components/icons';
import { button } from '../../../components/styles';
import { absoluteUrl } from '../../../lib/share-link';
import { leadPath } from '../../../lib/paths';
import { forgetPinnedLead, usePinnedLead } from '../../../lib/pinned-lead';
import { ApiRequestError } from '../../../lib/api';
import { leadByIdQuery, leadPickerQuery, type PickableLead } from '../../../lib/lead-search';
import { ShareLinks, useShareQuotation } from '../../../components/quotation-share-links';
import { createQuotation, toggleFavourite, type CreateQuotationBody } from '../api/quotes-data';
import { quotationSharesQuery } from '../../../lib/quotation-shares';
import { saveQuotationFailure } from '../utils/save-quotation-failure';
import { duplicateClientMessage } from '../../../lib/duplicate-client';

/**
 * A label over its control. The control fills the field and may shrink below its intrinsic
 * width (an input's `size`, a select's longest option), so it never sticks out of the panel.
 */
const field = css({
  display: 'flex',
  flexDirection: 'column',
  gap: 1,
  minW: 0,
  fontSize: 'sm',
  '& input, & select': {
    w: '100%',
    minW: 0,
    h: 10,
    px: 3,
    borderRadius: 'md',
    border: '1px solid token(colors.border)',
    bg: 'surface',
    fontSize: 'sm',
  },
});

const radio = css({
  display: 'flex',
  alignItems: 'center',
  gap: 2,
  fontSize: 'sm',
  cursor: 'pointer',
  py: 1,
});

export function SaveQuotation({
  corporate,
  body,
  disabled,
  onSaved,
}: {
  corporate: Pick<Corporate, 'id' | 'slug'>;
  /** The quotation without its lead. */
  body: Omit<CreateQuotationBody, 'idLead' | 'nuevoLead'>;
  disabled: boolean;
  onSaved: (quotation: Quotation) => void;
}) {
  // The leads namespace too: a duplicate client is said in its words (lib/duplicate-client.ts).
  const { t } = useTranslation(['quotes', 'leads']);
  const queryClient = useQueryClient();
  const pinnedId = usePinnedLead().leadId;
  const pinned = useQuery({ ...leadByIdQuery(corporate.id, pinnedId ?? ''), enabled: !!pinnedId });
  // A pinned client deleted (or out of reach) since it was pinned is forgotten, not asked again.
  const pinnedGone =
    pinned.error instanceof ApiRequestError && [403, 404].includes(pinned.error.status);
  useEffect(() => {
    if (pinnedGone && pinnedId) forgetPinnedLead(pinnedId);
  }, [pinnedGone, pinnedId]);
  // The newest leads: whether there are any, and the list's default. Any other is searched for.
  const leads = useQuery(leadPickerQuery(corporate.id, ''));
  /** The lead last picked in the search (it may not be among the newest). */
  const [picked, setPicked] = useState<PickableLead | null>(null);
  const ids = { list: useId(), nombre: useId(), apellidos: useId(), email: useId(), tel: useId() };

  const save = useMutation({
    mutationFn: (client: ClientChoice) => createQuotation(corporate.id, { ...body, ...client }),
    onSuccess: (_quotation, client) => {
      void queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerCotizacionesLocales'] });
      if ('nuevoLead' in client) {
        void queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerLeads'] });
      }
    },
  });
  // The flow is `saveQuotationMachine`: a second click while saving does nothing.
  const flow = useActorRef(
    saveQuotationMachine.provide({
      actors: {
        // The API's errors, read into what the machine acts on (the toast is the mutation's).
        saveQuotation: fromPromise<Quotation, SaveQuotationActorInput>(({ input }) =>
          save.mutateAsync(input.client).catch((error: unknown) => {
            throw new SaveQuotationError(saveQuotationFailure(error));
          }),
        ),
      },
      actions: { notifySaved: (_, quotation: Quotation) => onSaved(quotation) },
    }),
    { input: { pinned: pinned.data ?? null, leads: leads.data ?? [], disabled } },
  );
  const pinnedLead = pinned.data ?? null;
  const leadList = leads.data;
  useEffect(() => {
    flow.send({ type: 'quotation.sync', pinned: pinnedLead, leads: leadList ?? [], disabled });
  }, [flow, pinnedLead, leadList, disabled]);

  const context = useSelector(flow, (s) => s.context);
  const mode = effectiveMode(context);
  const chosen = listChoice(context);
  const chosenLead =
    picked?.id === chosen ? picked : (context.leads.find((l) => l.id === chosen) ?? null);
  const { nuevo } = context;
  const saving = useSelector(flow, (s) => s.hasTag('saving'));
  // The new client already is a lead (409 LEAD_DUPLICATE): said under the form until the next
  // save or another choice, with the way to that client when the adviser may open it.
  const duplicate = useSelector(flow, (s) =>
    s.matches({ choosing: 'duplicateClient' }) ? s.context.duplicate : null,
  );
  const canSave = useSelector(flow, (s) => s.can({ type: 'quotation.save' }));
  const setNuevo = (campo: keyof NewClient) => (e: { target: { value: string } }) =>
    flow.send({ type: 'quotation.newClient', campo, value: e.target.value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    flow.send({ type: 'quotation.save' });
  };

  return (
    <form
      onSubmit={submit}
      aria-label={t('save.title')}
      className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}
    >
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: 1 })}>
        <legend className={css({ fontWeight: 'semibold', mb: 1 })}>{t('save.leadLegend')}</legend>
        {context.pinned ? (
          <label className={radio}>
            <input
              type="radio"
              name="lead-mode"
              checked={mode === 'pinned'}
              onChange={() => flow.send({ type: 'quotation.mode', mode: 'pinned' })}
            />
            {t('save.pinned', { name: fullName(context.pinned) })}
          </label>
        ) : null}
        <label className={radio}>
          <input
            type="radio"
            name="lead-mode"
            checked={mode === 'list'}
            onChange={() => flow.send({ type: 'quotation.mode', mode: 'list' })}
            disabled={context.leads.length === 0}
          />
          {t('save.fromList')}
        </label>
        <label className={radio}>
          <input
            type="radio"
            name="lead-mode"
            checked={mode === 'new'}
            onChange={() => flow.send({ type: 'quotation.mode', mode: 'new' })}
          />
          {t('save.newLead')}
        </label>
      </fieldset>

      {mode === 'list' ? (
        <div className={field}>
          <label htmlFor={ids.list}>{t('save.lead')}</label>
          <LeadPicker
            id={ids.list}
            idCorporativo={corporate.id}
            selected={chosenLead}
            onSelect={(lead) => {
              setPicked(lead);
              flow.send({ type: 'quotation.choose', leadId: lead.id });
            }}
          />
        </div>
      ) : null}

      {mode === 'new' ? (
        <div
          className={css({
            display: 'grid',
            gridTemplateColumns: { base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' },
            gap: 2,
          })}
        >
          <div className={field}>
            <label htmlFor={ids.nombre}>{t('save.name')}</label>
            <input
              id={ids.nombre}
              required
              maxLength={120}
              value={nuevo.nombre}
              onChange={setNuevo('nombre')}
            />
          </div>
          <div className={field}>
            <label htmlFor={ids.apellidos}>{t('save.surname')}</label>
            <input
              id={ids.apellidos}
              maxLength={120}
              value={nuevo.apellidos}
              onChange={setNuevo('apellidos')}
            />
          </div>
          <div className={field}>
            <label htmlFor={ids.email}>{t('save.email')}</label>
            <input
              id={ids.email}
              type="email"
              maxLength={254}
              value={nuevo.email}
              onChange={setNuevo('email')}
            />
          </div>
          <div className={field}>
            <label htmlFor={ids.tel}>{t('save.phone')}</label>
            <input
              id={ids.tel}
              type="tel"
              maxLength={40}
              value={nuevo.telefono}
              onChange={setNuevo('telefono')}
            />
          </div>
        </div>
      ) : null}

      {duplicate && mode === 'new' ? (
        <DuplicateClient
          corporate={corporate}
          duplicate={duplicate}
          onUse={(lead) => {
            setPicked(lead);
            flow.send({ type: 'quotation.mode', mode: 'list' });
            flow.send({ type: 'quotation.choose', leadId: lead.id });
          }}
        />
      ) : null}

      <button type="submit" className={button()} disabled={!canSave}>
        {saving ? t('save.saving') : t('save.submit')}
      </button>
    </form>
  );
}

/**
 * Whose the new client already is: one of the adviser's own clients (with a link to it and a
 * button that saves to it instead), another adviser's (by name), or nobody's yet.
 */
function DuplicateClient({
  corporate,
  duplicate,
  onUse,
}: {
  corporate: Pick<Corporate, 'id' | 'slug'>;
  duplicate: DuplicateClientAnswer;
  onUse: (lead: PickableLead) => void;
}) {
  const { t } = useTranslation('quotes');
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(false);
  const { leadId } = duplicate;
  const use = async () => {
    if (!leadId) return;
    try {
      onUse(await queryClient.fetchQuery(leadByIdQuery(corporate.id, leadId)));
    } catch {
      setFailed(true);
    }
  };
  return (
    <div
      data-testid="save-duplicate"
      className={css({
        p: 3,
        borderRadius: 'lg',
        border: '1px solid',
        borderColor: 'highlight',
        bg: 'rgba(252,163,17,0.08)',
        display: 'flex',
        flexDirection: 'column',
        gap: 2,
        fontSize: 'sm',
      })}
    >
      <p role="alert" className={css({ fontWeight: 'semibold' })}>
        {duplicateClientMessage(t, duplicate)}
      </p>
      {leadId && duplicate.own ? (
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' })}>
          <button type="button" className={button({ variant: 'ghost' })} onClick={() => void use()}>
            {t('save.useExisting')}
          </button>
          <AppLink
            href={leadPath(corporate.slug, leadId)}
            className={css({ color: 'link', fontWeight: 'semibold' })}
          >
            {t('duplicate.open', { ns: 'leads' })}
          </AppLink>
        </div>
      ) : null}
      {failed ? <p role="alert">{t('save.useExistingFailed')}</p> : null}
    </div>
  );
}

/** A saved quotation: the lead it belongs to, the favourite toggle and the share link. */
export function SavedQuotation({
  corporate,
  quotation,
  onChange,
}: {
  corporate: Pick<Corporate, 'id' | 'slug'>;
  quotation: Quotation;
  onChange: (quotation: Quotation) => void;
}) {
  const { t } = useTranslation('quotes');
  const queryClient = useQueryClient();
  const favourite = useMutation({
    mutationFn: () => toggleFavourite(corporate.id, quotation.id),
    onSuccess: (r) => {
      onChange({ ...quotation, esFavorito: r.esFavorito });
      void queryClient.invalidateQueries({ queryKey: ['api', 'wsObtenerCotizacionesLocales'] });
    },
  });
  const share = useShareQuotation(corporate.id, quotation.id);
  // The link just made, until it is revoked in the list below.
  const shares = useQuery(quotationSharesQuery(corporate.id, quotation.id));
  const shareUrl = share.data ?? null;
  const shareRevoked =
    shareUrl !== null &&
    (shares.data ?? []).some((l) => l.revocadoEn !== null && absoluteUrl(l.url) === shareUrl);
  // The form and its Save button are gone once saved: focus goes to the confirmation, before the
  // lead link, the favourite and the share link (issue 19), unless it is somewhere already.
  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) status.current?.focus();
  }, []);
  return (
    <div
      className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}
      data-testid="saved-quotation"
      data-quotation-id={quotation.id}
    >
      <p
        ref={status}
        role="status"
        tabIndex={-1}
        className={css({
          p: 3,
          borderRadius: 'lg',
          bg: 'rgba(46,125,50,0.1)',
          color: 'success',
          fontWeight: 'semibold',
          _focus: { outline: 'none' },
        })}
      >
        {t('save.saved', { name: quotation.nombreCliente })}
        {quotationFolio(quotation.numero) ? (
          <span data-testid="quotation-folio" className={css({ display: 'block', fontSize: 'sm' })}>
            {t('document.folio', { folio: quotationFolio(quotation.numero) })}
          </span>
        ) : null}
      </p>
      <AppLink
        href={leadPath(corporate.slug, quotation.idLead)}
        className={css({ color: 'link', fontWeight: 'semibold', fontSize: 'sm' })}
      >
        {t('save.openLead', { name: quotation.nombreCliente })}
      </AppLink>
      <AppLink
        href={`/corporativos/${corporate.slug}/eventos?${new URLSearchParams({
          agendar: quotation.idLead,
          idDesarrollo: quotation.idDesarrollo,
          titulo: t('save.bookTitle', { unit: quotation.nombreUnidad }),
        }).toString()}`}
        className={button({ variant: 'ghost' })}
      >
        {t('save.book')}
      </AppLink>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}>
        <button
          type="button"
          className={`${button({ variant: 'ghost' })} ${css({ '& svg': { w: 5, h: 5 }, '&[aria-pressed="true"] svg': { color: 'highlight' } })}`}
          aria-pressed={quotation.esFavorito}
          // aria-disabled, not disabled: a disabled button drops the keyboard focus to the page.
          aria-disabled={favourite.isPending}
          onClick={() => {
            if (!favourite.isPending) favourite.mutate();
          }}
        >
          <StarIcon filled={quotation.esFavorito} />
          {t('save.favourite')}
        </button>
        <button
          type="button"
          className={button()}
          // aria-disabled, not disabled: a disabled button drops the keyboard focus to the page.
          aria-disabled={share.isPending}
          onClick={() => {
            if (!share.isPending) share.mutate();
          }}
        >
          {t('save.share')}
        </button>
      </div>
      {shareUrl && !shareRevoked ? (
        <p className={css({ fontSize: 'sm', wordBreak: 'break-all' })}>
          <a
            href={shareUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="share-link"
            className={css({ color: 'link', fontWeight: 'semibold' })}
          >
            {t('save.openShared')}
          </a>
        </p>
      ) : null}
      <ShareLinks
        corporateId={corporate.id}
        quotationId={quotation.id}
        timeZone={quotation.zonaHoraria}
      />
    </div>
  );
}
