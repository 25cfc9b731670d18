/**
 * The clients page (`/corporativos/{slug}/clientes`, spec §2 and §4): the corporate's leads in the
 * viewer's scope, newest first, in a virtualised list that reads further pages as it scrolls (so
 * 100,000 leads scroll like 100); search-as-you-type over name, email and phone (server side,
 * debounced), filters by status, development and — for `alcanceLeads = Todos` — adviser. The
 * filters live in the address (the route's search params, `ClientsSearch`), so a filtered list
 * is a link; the selected lead (the child route's param) opens beside the list, deep-linkable,
 * and opening one keeps the list's filters.
 */

import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import type { Lead } from '../../../../core/lead';
import type { LeadStatus } from '../../../../core/types';
import { seesAllLeads } from '../../../../core/permissions';
import { useClientsLabel } from '../../../lib/corporate-labels';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { AppLink } from '../../../components/app-link';
import { Modal } from '../../../components/modal';
import { button, card } from '../../../components/styles';
import { developmentsQuery } from '../../../lib/catalogue';
import { LeadCaptureForm } from './lead-capture-form';
import { fieldInput, fieldInputStyle } from './lead-fields';
import {
  adviserName,
  advisersQuery,
  leadStatusesQuery,
  useLeadList,
  useLeadsLive,
} from '../api/lead-queries';
import { isCrmOnlyLead, type LeadListFilters } from '../api/lead-source';
import { useListSearch } from '../hooks/use-list-search';
import type { ClientsSearch } from '../utils/clients-search';
import { leadPath } from '../../../lib/paths';
import { useDebounced } from '../../../lib/use-debounced';
import { useDateFormat } from '../../../lib/dates';
import { StatusBadge } from './status-badge';
import { useCorporateLabel } from '../../../lib/corporate-labels';

/** The CRM's part of the clients page (see the `crm` prop). */
export interface ClientsCrm {
  crmSource: boolean;
  reconnectPrompt: boolean;
  tipo: string | null;
  strip: ReactNode;
}

const NO_CRM: ClientsCrm = { crmSource: false, reconnectPrompt: false, tipo: null, strip: null };

/** Search waits this long after the last keystroke (search-as-you-type without a call per key). */
export const SEARCH_DEBOUNCE_MS = 250;
const ROW_HEIGHT = 76;
/** A manager's rows have a third line, the owner, which the contact line must not push out. */
const MANAGER_ROW_HEIGHT = 96;

const ellipsis = css({
  display: 'block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

function LeadRow({
  lead,
  href,
  height,
  selected,
  statuses,
  developmentName,
  owner,
  date,
}: {
  lead: Lead;
  href: string;
  height: number;
  selected: boolean;
  statuses: Map<string, LeadStatus>;
  developmentName: string | null;
  /** The owner line of a manager's list (null for an adviser's own list). */
  owner: string | null;
  date: string;
}) {
  const contact = [lead.email, lead.celular ?? lead.telefono].filter(Boolean).join(' · ');
  return (
    <AppLink
      href={href}
      aria-current={selected ? 'page' : undefined}
      data-testid="lead-row"
      className={css({
        display: 'grid',
        gridTemplateColumns: '1fr auto',
        alignItems: 'center',
        gap: 2,
        h: `${height - 6}px`,
        px: 4,
        borderRadius: 'lg',
        color: 'text',
        textDecoration: 'none',
        border: '1px solid transparent',
        _hover: { bg: 'rgba(0,0,0,0.03)' },
        _focusVisible: { outline: '2px solid', outlineColor: 'primary', outlineOffset: '-2px' },
        '&[aria-current="page"]': { bg: 'rgba(31,111,235,0.08)', borderColor: 'primary' },
      })}
    >
      <span className={css({ minW: 0 })}>
        <span className={cx(ellipsis, css({ fontWeight: 'semibold' }))}>
          {`${lead.nombre} ${lead.apellidos}`.trim()}
        </span>
        <span className={cx(ellipsis, css({ fontSize: 'sm', color: 'muted' }))}>
          {[contact, developmentName].filter(Boolean).join(' · ') || '—'}
        </span>
        {owner !== null ? (
          <span
            data-testid="lead-row-owner"
            className={cx(ellipsis, css({ fontSize: 'sm', color: 'muted' }))}
          >
            {owner}
          </span>
        ) : null}
      </span>
      <span
        className={css({
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'flex-end',
          gap: 1,
        })}
      >
        <StatusBadge status={lead.status ? statuses.get(lead.status) : undefined} />
        <span className={css({ fontSize: 'xs', color: 'muted', whiteSpace: 'nowrap' })}>
          {date}
        </span>
      </span>
    </AppLink>
  );
}

export function ClientsPage({
  search,
  onSearch,
  selectedLeadId: selectedId,
  crm = NO_CRM,
  children,
}: {
  /**
   * The CRM connection as the list needs it, with its strip (the CRM feature's, composed by the
   * route; issue 17). While `crmSource`, the lead source is the CRM's.
   */
  crm?: ClientsCrm;
  /** The list's filters, from the address. */
  search: ClientsSearch;
  /** Puts other filters in the address (the list follows). */
  onSearch: (next: ClientsSearch) => void;
  /** The lead open beside the list (the child route's param), or null. */
  selectedLeadId: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation(['leads', 'crm']);
  const corporateLabel = useCorporateLabel();
  const { corporate, role } = useCorporateContext();
  const router = useRouter();
  const manager = role !== null && seesAllLeads(role);
  const [creating, setCreating] = useState(false);
  const listSearch = useListSearch();

  // The search box answers every keystroke; the address, and so the list, follow it
  // SEARCH_DEBOUNCE_MS after the last one. A search that comes from the address itself (a link,
  // back and forward) replaces what the box shows.
  const urlQuery = search.q ?? '';
  const [text, setText] = useState(urlQuery);
  const settled = useDebounced(text, SEARCH_DEBOUNCE_MS);
  /** The search the address has, or is about to have. */
  const sent = useRef(urlQuery);
  useEffect(() => {
    if (settled !== text) return;
    const q = settled.trim();
    if (q === sent.current) return;
    sent.current = q;
    onSearch({ ...search, q: q || undefined });
  }, [settled, text, search, onSearch]);
  useEffect(() => {
    if (urlQuery === sent.current) return;
    sent.current = urlQuery;
    setText(urlQuery);
  }, [urlQuery]);

  const status = search.status ?? '';
  const desarrollo = search.desarrollo ?? '';
  const idVendedor = manager ? (search.idVendedor ?? '') : '';
  const filters: LeadListFilters = { q: urlQuery, status, desarrollo, idVendedor };
  // With a CRM connection the list is the CRM's (the lead source chooses, issue 17): searched by
  // text only, since the CRM knows nothing of our statuses, developments and advisers.
  const list = useLeadList(corporate, crm.crmSource ? { q: urlQuery } : filters);
  useLeadsLive(corporate);

  const statuses = useQuery(leadStatusesQuery(corporate.id));
  const developments = useQuery(developmentsQuery(corporate.id));
  const advisers = useQuery({ ...advisersQuery(corporate.id), enabled: manager });
  const statusById = useMemo(
    () => new Map((statuses.data ?? []).map((s) => [s.id, s])),
    [statuses.data],
  );
  const developmentById = useMemo(
    () => new Map((developments.data ?? []).map((d) => [d.id, d.nombre])),
    [developments.data],
  );
  const adviserById = useMemo(
    () => new Map((advisers.data ?? []).map((a) => [a.id, adviserName(a)])),
    [advisers.data],
  );
  // The day the lead came, in the corporate's zone (issue 19, defect 8).
  const formatDate = useDateFormat(corporate.zonaHoraria);

  const scroller = useRef<HTMLDivElement>(null);
  const rows = list.leads;
  const count = rows.length + (list.hasNextPage ? 1 : 0);
  const rowHeight = manager ? MANAGER_ROW_HEIGHT : ROW_HEIGHT;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= rows.length - 20) list.loadMore();
  }, [lastIndex, rows.length, list]);

  // The corporate's name for its clients is the adviser's own list's ("Mis clientes" in the
  // demo); a role that sees every adviser's clients reads "Clientes", in the labels page's words.
  const ownTitle = useClientsLabel(corporate, t('title'));
  const allTitle = useClientsLabel(null, t('titleAll'));
  const title = manager ? allTitle : ownTitle;
  // Every matching lead, loaded or not; a source that cannot count shows what it has loaded.
  const total = list.total ?? (list.hasNextPage ? null : rows.length);
  const filtered = Boolean(urlQuery || status || desarrollo || idVendedor);

  return (
    <div
      className={css({
        display: 'grid',
        gridTemplateColumns: {
          base: '1fr',
          lg: 'minmax(22rem, 30rem) 1fr',
          xl: 'minmax(24rem, 34rem) 1fr',
        },
        gap: 4,
        maxW: '110rem',
        mx: 'auto',
      })}
    >
      <section
        aria-labelledby="clients-title"
        className={cx(
          card(),
          css({
            p: 4,
            display: selectedId ? { base: 'none', lg: 'flex' } : 'flex',
            flexDirection: 'column',
            gap: 3,
            h: { lg: 'calc(100vh - 7.5rem)' },
            minH: '28rem',
          }),
        )}
      >
        <div className={css({ display: 'flex', alignItems: 'center', gap: 3 })}>
          <div className={css({ flex: 1, minW: 0 })}>
            <h2 id="clients-title" className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
              {title}
            </h2>
            <p
              aria-live="polite"
              data-testid="lead-total"
              className={css({ fontSize: 'sm', color: 'muted' })}
            >
              {list.isPending
                ? t('list.loading')
                : list.isError
                  ? t('list.loadFailed')
                  : total !== null
                    ? t('list.total', { count: total })
                    : t('list.countMore', { count: rows.length })}
            </p>
          </div>
          <button type="button" className={button()} onClick={() => setCreating(true)}>
            {t('list.new')}
          </button>
        </div>
        {crm.strip}
        <div role="search" className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
          <label className={css({ display: 'block' })}>
            <span className={css({ srOnly: true })}>{t('list.searchLabel')}</span>
            <input
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={t('list.searchPlaceholder')}
              className={fieldInput}
            />
          </label>
          {/* As many filters a row as fit whole ("Todos los desarrollos" included): a manager's
              third one wraps to a second row rather than cutting every label. */}
          <div
            hidden={crm.crmSource}
            className={css({
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(12.5rem, 1fr))',
              gap: 2,
              '&[hidden]': { display: 'none' },
            })}
          >
            <FilterSelect
              label={t('list.filterStatus')}
              value={status}
              onChange={(value) => onSearch({ ...search, status: value || undefined })}
              all={t('list.allStatuses')}
              options={(statuses.data ?? []).map((s) => ({
                value: s.id,
                label: corporateLabel('statusLead', s.nombre),
              }))}
            />
            <FilterSelect
              label={t('list.filterDevelopment')}
              value={desarrollo}
              onChange={(value) => onSearch({ ...search, desarrollo: value || undefined })}
              all={t('list.allDevelopments')}
              options={(developments.data ?? []).map((d) => ({ value: d.id, label: d.nombre }))}
            />
            {manager ? (
              <FilterSelect
                label={t('list.filterAdviser')}
                value={idVendedor}
                onChange={(value) => onSearch({ ...search, idVendedor: value || undefined })}
                all={t('list.allAdvisers')}
                options={(advisers.data ?? []).map((a) => ({
                  value: a.id,
                  label: adviserName(a),
                }))}
              />
            ) : null}
          </div>
        </div>
        <div
          ref={scroller}
          data-testid="lead-list"
          className={css({
            flex: 1,
            minH: 0,
            overflowY: 'auto',
            h: { base: '60vh', lg: 'auto' },
            mx: -2,
          })}
        >
          {!list.isPending && rows.length === 0 ? (
            <p className={css({ p: 6, textAlign: 'center', color: 'muted' })}>
              {crm.reconnectPrompt
                ? t('crm:list.reconnectEmpty', { tipo: crm.tipo ?? '' })
                : filtered
                  ? t('list.noMatches')
                  : t('list.empty')}
            </p>
          ) : null}
          <ul
            aria-label={title}
            className={css({ position: 'relative', listStyle: 'none', px: 2 })}
            style={{ height: virtualizer.getTotalSize() }}
          >
            {items.map((item) => {
              const lead = rows[item.index];
              return (
                <li
                  key={lead?.id ?? 'loader'}
                  className={css({ position: 'absolute', left: 2, right: 2, top: 0 })}
                  style={{ transform: `translateY(${item.start}px)`, height: item.size }}
                >
                  {lead && isCrmOnlyLead(lead) ? (
                    <CrmOnlyRow
                      lead={lead}
                      height={rowHeight}
                      date={lead.fechaAlta ? formatDate(lead.fechaAlta) : ''}
                    />
                  ) : lead ? (
                    <LeadRow
                      lead={lead}
                      href={`${leadPath(corporate.slug, lead.id)}${listSearch}`}
                      height={rowHeight}
                      selected={lead.id === selectedId}
                      statuses={statusById}
                      developmentName={
                        lead.desarrollo ? (developmentById.get(lead.desarrollo) ?? null) : null
                      }
                      owner={
                        manager
                          ? t('list.owner', {
                              nombre: lead.idVendedor
                                ? (adviserById.get(lead.idVendedor) ?? '—')
                                : t('detail.unassigned'),
                            })
                          : null
                      }
                      date={formatDate(lead.fechaAlta)}
                    />
                  ) : (
                    <p className={css({ p: 4, color: 'muted', fontSize: 'sm' })}>
                      {t('list.loadingMore')}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      </section>
      <div className={css({ display: selectedId ? 'block' : { base: 'none', lg: 'block' } })}>
        {children}
      </div>
      {creating ? (
        <Modal title={t('list.newTitle')} onClose={() => setCreating(false)}>
          <LeadCaptureForm
            corporate={corporate}
            onCreated={(lead) => {
              setCreating(false);
              void router.navigate({ href: `${leadPath(corporate.slug, lead.id)}${listSearch}` });
            }}
          />
        </Modal>
      ) : null}
    </div>
  );
}

/** A CRM record that is not one of our leads: shown, but there is nothing of ours to open. */
function CrmOnlyRow({ lead, height, date }: { lead: Lead; height: number; date: string }) {
  const { t } = useTranslation('crm');
  const contact = [lead.email, lead.telefono].filter(Boolean).join(' · ');
  return (
    <div
      data-testid="lead-row"
      data-crm-only=""
      className={css({
        display: 'grid',
        gridTemplateColumns: '1fr auto',
        alignItems: 'center',
        gap: 2,
        h: `${height - 6}px`,
        px: 4,
        borderRadius: 'lg',
        border: '1px dashed',
        borderColor: 'border',
      })}
    >
      <span className={css({ minW: 0 })}>
        <span className={cx(ellipsis, css({ fontWeight: 'semibold' }))}>
          {`${lead.nombre} ${lead.apellidos}`.trim() || '—'}
        </span>
        <span className={cx(ellipsis, css({ fontSize: 'sm', color: 'muted' }))}>
          {contact || '—'}
        </span>
      </span>
      <span
        className={css({
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'flex-end',
          gap: 1,
        })}
      >
        <span className={css({ fontSize: 'xs', color: 'muted', whiteSpace: 'nowrap' })}>
          {t('list.crmOnly')}
        </span>
        <span className={css({ fontSize: 'xs', color: 'muted', whiteSpace: 'nowrap' })}>
          {date}
        </span>
      </span>
    </div>
  );
}

function FilterSelect({
  label,
  value,
  onChange,
  all,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  all: string;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className={css({ minW: 0 })}>
      <label
        htmlFor={id}
        className={css({
          display: 'block',
          fontSize: 'xs',
          fontWeight: 'semibold',
          color: 'muted',
          mb: 1,
        })}
      >
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={css(fieldInputStyle, { fontSize: 'sm', minH: 10, px: 2 })}
      >
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
