/**
 * One lead (`/corporativos/{slug}/clientes/{leadId}`): its fields, editable (saved with
 * `leadAnterior`; a conflict shows the stored version and lets the user reapply, never a silent
 * overwrite), its follow-up notes, its change history and its quotations; the pin (local
 * storage `lead-id`, picked up by the quotation and appointment pages), the WhatsApp and e-mail
 * links built from the development's (else the corporate's) `prospecto` template, deletion (the
 * row goes once the server confirmed) and, for whoever may give leads to advisers, reassignment.
 */

import { messageTemplateFor } from '../../../../core/development-settings';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { phoneCountryForTimeZone, type Lead } from '../../../../core/lead';
import type { Corporate, LeadStatus, Role, User } from '../../../../core/types';
import { mayAssignLeads } from '../../../../core/permissions';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { ApiRequestError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { useDateFormat } from '../../../lib/dates';
import { usePinnedLead } from '../../../lib/pinned-lead';
import { toast } from '../../../lib/toast';
import { AppLink } from '../../../components/app-link';
import { Modal } from '../../../components/modal';
import { button } from '../../../components/styles';
import { developmentsQuery } from '../../../lib/catalogue';
import { LeadEditor } from './lead-editor';
import { SelectField } from './lead-fields';
import { LeadHistory } from './lead-history';
import { LeadNotes } from './lead-notes';
import {
  adviserName,
  advisersQuery,
  leadStatusesQuery,
  useAssignLead,
  useDeleteLead,
  useLead,
} from '../api/lead-queries';
import { LeadQuotations } from './lead-quotations';
import { clientsPath } from '../../../lib/paths';
import { sectionCard } from '../utils/lead-styles';
import { StatusBadge } from './status-badge';
import { whatsappLink } from '../utils/whatsapp';
import { emailLink } from '../utils/email';
import { useListSearch } from '../hooks/use-list-search';

export function LeadDetail({
  leadId,
  syncPanel,
}: {
  leadId: string;
  /** The lead's CRM sync and export (the CRM feature's, composed by the route; issue 17). */
  syncPanel?: ReactNode;
}) {
  const { t } = useTranslation('leads');
  const { corporate, user, role } = useCorporateContext();
  const query = useLead(corporate, leadId);
  const listSearch = useListSearch();

  if (query.isPending) {
    return (
      <p className={cx(sectionCard, css({ color: 'muted' }))} aria-busy="true">
        {t('detail.loading')}
      </p>
    );
  }
  const missing = query.error instanceof ApiRequestError && query.error.status === 404;
  if (query.data === undefined) {
    return (
      <div className={sectionCard} role="alert">
        <p className={css({ fontWeight: 'semibold', mb: 3 })}>
          {missing ? t('detail.notFound') : errorMessage(query.error)}
        </p>
        <AppLink
          href={`${clientsPath(corporate.slug)}${listSearch}`}
          className={css({ color: 'link' })}
        >
          {t('detail.back')}
        </AppLink>
      </div>
    );
  }
  // Shown, then a 404 on reading it again (the live stream, or a save, found it deleted): the
  // page stays, locked, with what the user typed still visible.
  return (
    <LeadView
      lead={query.data}
      gone={missing}
      corporate={corporate}
      user={user}
      role={role}
      syncPanel={syncPanel}
    />
  );
}

/**
 * Said at the top of a lead that was deleted (or left the user's scope) while it was open; it
 * takes the focus, so it is seen (and read) even from the Save button at the bottom.
 */
function GoneNotice({ corporateSlug }: { corporateSlug: string }) {
  const { t } = useTranslation('leads');
  const notice = useRef<HTMLDivElement>(null);
  const listSearch = useListSearch();
  useEffect(() => notice.current?.focus(), []);
  return (
    <div
      ref={notice}
      tabIndex={-1}
      role="alert"
      data-testid="lead-gone"
      className={css({
        p: 4,
        borderRadius: 'lg',
        border: '1px solid',
        borderColor: 'danger',
        bg: 'rgba(198,40,40,0.06)',
      })}
    >
      <p className={css({ fontWeight: 'semibold', mb: 1 })}>{t('detail.goneTitle')}</p>
      <p className={css({ fontSize: 'sm', mb: 3 })}>{t('detail.goneBody')}</p>
      <AppLink
        href={`${clientsPath(corporateSlug)}${listSearch}`}
        className={css(button.raw({ variant: 'ghost' }), { display: 'inline-flex' })}
      >
        {t('detail.back')}
      </AppLink>
    </div>
  );
}

function LeadView({
  lead,
  gone,
  corporate,
  user,
  role,
  syncPanel,
}: {
  lead: Lead;
  /** Deleted or out of scope since it was loaded: everything that writes is locked. */
  gone: boolean;
  corporate: Corporate;
  user: User;
  role: Role | null;
  syncPanel?: ReactNode;
}) {
  const { t } = useTranslation('leads');
  const router = useRouter();
  const listSearch = useListSearch();
  // Reassignment, and the advisers' names it needs, as the server allows it (core's rule).
  const assigns = role !== null && mayAssignLeads(role);
  const statuses = useQuery(leadStatusesQuery(corporate.id));
  const developments = useQuery(developmentsQuery(corporate.id));
  const advisers = useQuery({ ...advisersQuery(corporate.id), enabled: assigns });
  const pinned = usePinnedLead();
  const formatDate = useDateFormat(corporate.zonaHoraria);
  const corporateLabel = useCorporateLabel();
  const remove = useDeleteLead(corporate);
  const [confirming, setConfirming] = useState(false);

  const status: LeadStatus | undefined = statuses.data?.find((s) => s.id === lead.status);
  const development = developments.data?.find((d) => d.id === lead.desarrollo);
  const owner =
    lead.idVendedor === user.id
      ? t('detail.you')
      : (advisers.data?.find((a) => a.id === lead.idVendedor) ?? null);
  const ownerLabel =
    typeof owner === 'string' ? owner : owner ? adviserName(owner) : t('detail.unassigned');
  const fullName = `${lead.nombre} ${lead.apellidos}`.trim();
  const isPinned = pinned.leadId === lead.id;
  // The lead's development's own template (spec §3 message template), else the corporate's.
  const template = messageTemplateFor(development, corporate.plantillaMensaje?.prospecto);
  const placeholders = {
    nombre: lead.nombre,
    asesor: `${user.nombre} ${user.apellidos}`.trim(),
    corporativo: corporate.nombre,
    desarrollo: development?.nombre ?? t('detail.ourDevelopments'),
  };
  const whatsapp = whatsappLink({
    template,
    phone: lead.celular ?? lead.telefono,
    country: phoneCountryForTimeZone(corporate.zonaHoraria),
    ...placeholders,
  });
  const email = emailLink({
    template,
    email: lead.email,
    subject: t('detail.emailSubject', placeholders),
    ...placeholders,
  });
  // In the corporate's zone, not the browser's (issue 19, defect 8).
  const registered = formatDate(lead.fechaAlta, 'dateTimeLong');

  const deleteLead = () =>
    remove.mutate(lead.id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(t('detail.deleted', { nombre: fullName }));
        void router.navigate({ href: `${clientsPath(corporate.slug)}${listSearch}` });
      },
    });

  return (
    <article
      aria-labelledby="lead-title"
      className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}
    >
      {gone ? <GoneNotice corporateSlug={corporate.slug} /> : null}
      <header className={sectionCard}>
        <AppLink
          href={`${clientsPath(corporate.slug)}${listSearch}`}
          className={css({ display: { lg: 'none' }, color: 'link', fontSize: 'sm', mb: 2 })}
        >
          ← {t('detail.back')}
        </AppLink>
        <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 3 })}>
          <h2
            id="lead-title"
            className={css({ fontSize: '2xl', fontWeight: 'bold', lineHeight: 1.2 })}
          >
            {fullName}
          </h2>
          <StatusBadge status={status} />
          {isPinned ? (
            <span
              className={css({
                fontSize: 'xs',
                fontWeight: 'semibold',
                px: 2,
                py: '2px',
                borderRadius: 'full',
                bg: 'highlight',
                color: '#111',
              })}
            >
              {t('detail.pinnedBadge')}
            </span>
          ) : null}
        </div>
        <dl
          className={css({
            mt: 3,
            display: 'grid',
            gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' },
            gap: 3,
            fontSize: 'sm',
            '& dt': { color: 'muted', fontSize: 'xs' },
          })}
        >
          <div>
            <dt>{t('detail.owner')}</dt>
            <dd data-testid="lead-owner">{ownerLabel}</dd>
          </div>
          <div>
            <dt>{t('detail.registered')}</dt>
            <dd>{registered}</dd>
          </div>
          <div>
            <dt>{t('fields.medioContacto')}</dt>
            <dd>
              {lead.medioContacto ? corporateLabel('medioContacto', lead.medioContacto) : '—'}
            </dd>
          </div>
        </dl>
        {gone ? null : (
          <div className={css({ mt: 4, display: 'flex', flexWrap: 'wrap', gap: 2 })}>
            <button
              type="button"
              aria-pressed={isPinned}
              className={button({ variant: isPinned ? 'primary' : 'ghost' })}
              onClick={() => (isPinned ? pinned.unpin() : pinned.pin(lead.id))}
            >
              {isPinned ? t('detail.unpin') : t('detail.pin')}
            </button>
            <AppLink
              href={`/corporativos/${corporate.slug}/eventos?${new URLSearchParams({
                agendar: lead.id,
                ...(lead.desarrollo ? { idDesarrollo: lead.desarrollo } : {}),
              }).toString()}`}
              className={button({ variant: 'ghost' })}
            >
              {t('detail.book')}
            </AppLink>
            {whatsapp ? (
              <a
                href={whatsapp}
                target="_blank"
                rel="noopener noreferrer"
                className={button({ variant: 'ghost' })}
              >
                {t('detail.whatsapp')}
              </a>
            ) : null}
            {email ? (
              <a href={email} className={button({ variant: 'ghost' })}>
                {t('detail.email')}
              </a>
            ) : null}
            <button
              type="button"
              className={css(button.raw({ variant: 'ghost' }), { color: 'danger' })}
              onClick={() => setConfirming(true)}
            >
              {t('detail.delete')}
            </button>
          </div>
        )}
        {assigns && !gone ? <Reassign corporate={corporate} lead={lead} /> : null}
      </header>

      <LeadEditor
        key={lead.id}
        lead={lead}
        disabled={gone}
        corporate={corporate}
        statuses={statuses.data ?? []}
        developments={(developments.data ?? []).map((d) => ({
          value: d.id,
          label: d.nombre,
          campanias: d.campanias ?? [],
        }))}
      />
      {gone ? null : syncPanel}
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', xl: '1fr 1fr' },
          gap: 4,
          alignItems: 'start',
        })}
      >
        <LeadNotes
          corporateId={corporate.id}
          leadId={lead.id}
          user={user}
          readOnly={gone}
          registrationNote={lead.notas ? { nota: lead.notas, fecha: lead.fechaAlta } : null}
        />
        <LeadHistory
          corporateId={corporate.id}
          leadId={lead.id}
          statuses={statuses.data ?? []}
          developments={developments.data ?? []}
        />
      </div>
      <LeadQuotations corporateId={corporate.id} leadId={lead.id} />

      {confirming ? (
        <Modal title={t('detail.deleteTitle')} onClose={() => setConfirming(false)}>
          <p className={css({ mb: 5 })}>{t('detail.deleteBody', { nombre: fullName })}</p>
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: 2 })}>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => setConfirming(false)}
            >
              {t('detail.cancel')}
            </button>
            <button
              type="button"
              className={css(button.raw(), { bg: 'danger', color: 'white' })}
              disabled={remove.isPending}
              onClick={deleteLead}
            >
              {remove.isPending ? t('detail.deleting') : t('detail.confirmDelete')}
            </button>
          </div>
        </Modal>
      ) : null}
    </article>
  );
}

function Reassign({ corporate, lead }: { corporate: Corporate; lead: Lead }) {
  const { t } = useTranslation('leads');
  const advisers = useQuery(advisersQuery(corporate.id));
  const assign = useAssignLead(corporate.id);
  const [target, setTarget] = useState('');
  return (
    <div
      className={css({
        mt: 4,
        pt: 4,
        borderTop: '1px solid token(colors.border)',
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        alignItems: 'flex-end',
      })}
    >
      <SelectField
        label={t('detail.reassignTo')}
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        emptyLabel={t('duplicate.chooseAdviser')}
        options={(advisers.data ?? [])
          .filter((a) => a.id !== lead.idVendedor)
          .map((a) => ({ value: a.id, label: adviserName(a) }))}
        className={css({ minW: '14rem' })}
      />
      <button
        type="button"
        className={button({ variant: 'ghost' })}
        disabled={!target || assign.isPending}
        onClick={() =>
          assign.mutate(
            { leadId: lead.id, idVendedor: target },
            {
              onSuccess: () => {
                setTarget('');
                toast.success(t('detail.reassigned'));
              },
            },
          )
        }
      >
        {t('detail.reassign')}
      </button>
    </div>
  );
}
