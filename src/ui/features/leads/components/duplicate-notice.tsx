/**
 * The answer to registering someone who already is a lead of the corporate (409 LEAD_DUPLICATE):
 * the owner's name, as the server gave it, or, when the lead is the user's own, that it already is
 * one of their clients, with a link to it. Managers (`alcanceLeads = Todos`) also get the existing
 * lead and two actions: merge the captured data into it (its empty fields are filled, an ordinary
 * edit with `leadAnterior`) or reassign it to an adviser.
 */

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import {
  LEAD_EDITABLE_FIELDS,
  leadContactKeys,
  normalizeLeadFields,
  type Lead,
} from '../../../../core/lead';
import type { Corporate } from '../../../../core/types';
import { seesAllLeads } from '../../../../core/permissions';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { AppLink } from '../../../components/app-link';
import { button } from '../../../components/styles';
import { SelectField } from './lead-fields';
import type { LeadFormValues } from '../utils/lead-form';
import {
  adviserName,
  advisersQuery,
  leadQuery,
  useAssignLead,
  useUpdateLead,
} from '../api/lead-queries';
import { leadSourceFor, type LeadDuplicateError } from '../api/lead-source';
import { leadPath } from '../../../lib/paths';
import { duplicateClientMessage } from '../../../lib/duplicate-client';

/** The captured values that would fill the existing lead's empty fields. */
export function mergeChanges(existing: Lead, values: LeadFormValues) {
  const captured = normalizeLeadFields(values);
  const changes: Record<string, string> = {};
  for (const campo of LEAD_EDITABLE_FIELDS) {
    const value = captured[campo];
    if (value && !existing[campo]) changes[campo] = value;
  }
  return changes;
}

/** What the form keeps of a duplicate answer. */
export type DuplicateAnswer = Pick<LeadDuplicateError, 'ownerName' | 'leadId' | 'own'>;

/**
 * The existing lead, for a manager: read by the id the answer carries, or (a source that gives
 * no id) searched by the captured email or phone and matched as duplicate detection does.
 */
function useExistingLead(
  corporate: Corporate,
  values: LeadFormValues,
  leadId: string | null,
  enabled: boolean,
) {
  const source = leadSourceFor(corporate);
  const keys = leadContactKeys(normalizeLeadFields(values));
  const q = keys.email || keys.phones[0] || '';
  const byId = useQuery({
    ...leadQuery(source, corporate.id, leadId ?? ''),
    enabled: enabled && leadId !== null,
  });
  const bySearch = useQuery({
    queryKey: ['leads', corporate.id, 'duplicate', q],
    enabled: enabled && leadId === null && q !== '',
    queryFn: async ({ signal }) => {
      const page = await source.list(corporate.id, { q }, { cursor: null, limit: 20 }, signal);
      return (
        page.leads.find((l) => {
          const k = leadContactKeys(l);
          return (
            (keys.email !== '' && k.email === keys.email) ||
            keys.phones.some((p) => k.phones.includes(p))
          );
        }) ?? null
      );
    },
  });
  return leadId !== null ? (byId.data ?? null) : (bySearch.data ?? null);
}

export function DuplicateNotice({
  corporate,
  duplicate,
  values,
  onDone,
}: {
  corporate: Corporate;
  duplicate: DuplicateAnswer;
  values: LeadFormValues;
  onDone: (lead: Lead) => void;
}) {
  const { t } = useTranslation('leads');
  const { role } = useCorporateContext();
  const manager = role !== null && seesAllLeads(role);
  const lead = useExistingLead(corporate, values, duplicate.leadId, manager);
  const advisers = useQuery({ ...advisersQuery(corporate.id), enabled: manager });
  const update = useUpdateLead(corporate, lead?.id ?? '');
  const assign = useAssignLead(corporate.id);
  const [adviser, setAdviser] = useState('');

  const changes = lead ? mergeChanges(lead, values) : {};
  return (
    <div
      data-testid="duplicate-notice"
      className={css({
        mt: 5,
        p: 4,
        borderRadius: 'lg',
        border: '1px solid',
        borderColor: 'highlight',
        bg: 'rgba(252,163,17,0.08)',
      })}
    >
      <p role="alert" className={css({ fontWeight: 'semibold' })}>
        {duplicateClientMessage(t, duplicate)}
      </p>
      {duplicate.leadId && !manager ? (
        <AppLink
          href={leadPath(corporate.slug, duplicate.leadId)}
          className={css(button.raw({ variant: 'ghost' }), { display: 'inline-flex', mt: 3 })}
        >
          {t('duplicate.open')}
        </AppLink>
      ) : null}
      {manager && lead ? (
        <div className={css({ mt: 3, display: 'flex', flexDirection: 'column', gap: 3 })}>
          <p className={css({ fontSize: 'sm' })}>
            {t('duplicate.existing', {
              nombre: `${lead.nombre} ${lead.apellidos}`.trim(),
            })}{' '}
            <AppLink href={leadPath(corporate.slug, lead.id)} className={css({ color: 'link' })}>
              {t('duplicate.open')}
            </AppLink>
          </p>
          <div
            className={css({ display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'flex-end' })}
          >
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              disabled={update.isPending || Object.keys(changes).length === 0}
              onClick={() =>
                update.mutate({ changes, leadAnterior: lead }, { onSuccess: (l) => onDone(l) })
              }
            >
              {t('duplicate.merge')}
            </button>
            <SelectField
              label={t('duplicate.reassignTo')}
              value={adviser}
              onChange={(e) => setAdviser(e.target.value)}
              emptyLabel={t('duplicate.chooseAdviser')}
              options={(advisers.data ?? [])
                .filter((a) => a.id !== lead.idVendedor)
                .map((a) => ({ value: a.id, label: adviserName(a) }))}
            />
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              disabled={!adviser || assign.isPending}
              onClick={() =>
                assign.mutate(
                  { leadId: lead.id, idVendedor: adviser },
                  { onSuccess: (l) => onDone(l) },
                )
              }
            >
              {t('duplicate.reassign')}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
