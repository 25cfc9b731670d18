/**
 * The share links of a saved quotation: when each was created, when it expires and whether it
 * still opens (active, expired, revoked), with a button to revoke an active one. Revoking asks
 * for confirmation first, because the buyer holding that link loses it at once; the other links
 * keep working. Revoked links stay listed, so the adviser can tell which link a buyer has.
 */

import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { toast } from '../lib/toast';
import { absoluteUrl, copyLink } from '../lib/share-link';
import { Modal } from './modal';
import { button } from './styles';
import { formatDateTime } from '../lib/dates';
import {
  quotationSharesQuery,
  revokeShare,
  shareQuotation,
  shareLinkState,
  type ShareLinkAnswer,
  type ShareLinkState,
} from '../lib/quotation-shares';

const badge = css({
  alignSelf: 'flex-start',
  px: 2,
  py: '1px',
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
  '&[data-state="active"]': { bg: 'rgba(46,125,50,0.12)', color: 'success' },
  '&[data-state="expired"]': { bg: 'rgba(107,114,128,0.14)', color: 'muted' },
  '&[data-state="revoked"]': { bg: 'rgba(198,40,40,0.1)', color: 'danger' },
});

/**
 * Creates a new share link of a quotation, copies it (with the spec's toasts, §8) and refreshes
 * the quotation's list of links; the mutation's data is the absolute URL.
 */
export function useShareQuotation(corporateId: string, quotationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => absoluteUrl((await shareQuotation(corporateId, quotationId)).url),
    onSuccess: async (url) => {
      void queryClient.invalidateQueries({
        queryKey: quotationSharesQuery(corporateId, quotationId).queryKey,
      });
      await copyLink(url);
    },
  });
}

export function ShareLinks({
  corporateId,
  quotationId,
  timeZone,
}: {
  corporateId: string;
  quotationId: string;
  /** The corporate's, so every adviser reads the same times. */
  timeZone: string;
}) {
  const { t, i18n } = useTranslation('quotes');
  const queryClient = useQueryClient();
  const headingId = useId();
  const query = useQuery(quotationSharesQuery(corporateId, quotationId));
  const [confirming, setConfirming] = useState<ShareLinkAnswer | null>(null);
  const when = (iso: string) => formatDateTime(iso, i18n.language, timeZone);

  const revoke = useMutation({
    mutationFn: (link: ShareLinkAnswer) => revokeShare(corporateId, quotationId, link.nonce),
    onSuccess: () => {
      setConfirming(null);
      toast.success(t('shares.revoked'));
    },
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: quotationSharesQuery(corporateId, quotationId).queryKey,
      }),
  });

  if (query.isError) {
    return <p className={css({ fontSize: 'sm', color: 'danger' })}>{t('shares.loadFailed')}</p>;
  }
  const links = query.data ?? [];
  if (links.length === 0) return null;
  // The state as of the list's answer: a render stays pure, and a refetch brings it up to date.
  const asOf = query.dataUpdatedAt;

  return (
    <section aria-labelledby={headingId} data-testid="share-links">
      <h4 id={headingId} className={css({ fontWeight: 'semibold', fontSize: 'sm', mb: 2 })}>
        {t('shares.title')}
      </h4>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
        {links.map((link) => (
          <ShareLinkItem
            key={link.nonce}
            link={link}
            state={shareLinkState(link, asOf)}
            when={when}
            onRevoke={() => setConfirming(link)}
          />
        ))}
      </ul>

      {confirming ? (
        <Modal title={t('shares.confirmTitle')} onClose={() => setConfirming(null)}>
          <p className={css({ mb: 5 })}>
            {t('shares.confirmBody', { date: when(confirming.creadoEn) })}
          </p>
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: 2 })}>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => setConfirming(null)}
            >
              {t('shares.cancel')}
            </button>
            <button
              type="button"
              className={css(button.raw(), { bg: 'danger', color: 'white' })}
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(confirming)}
            >
              {revoke.isPending ? t('shares.revoking') : t('shares.confirm')}
            </button>
          </div>
        </Modal>
      ) : null}
    </section>
  );
}

function ShareLinkItem({
  link,
  state,
  when,
  onRevoke,
}: {
  link: ShareLinkAnswer;
  state: ShareLinkState;
  when: (iso: string) => string;
  onRevoke: () => void;
}) {
  const { t } = useTranslation('quotes');
  const detailsId = useId();
  return (
    <li
      data-testid="share-link-item"
      data-state={state}
      className={css({
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        p: 3,
        borderRadius: 'lg',
        border: '1px solid token(colors.border)',
        fontSize: 'sm',
      })}
    >
      <div id={detailsId} className={css({ display: 'flex', flexDirection: 'column', gap: 1 })}>
        <span className={badge} data-state={state}>
          {t(`shares.state.${state}`)}
        </span>
        <span>{t('shares.created', { date: when(link.creadoEn) })}</span>
        <span className={css({ color: 'muted' })}>
          {state === 'revoked' && link.revocadoEn !== null
            ? t('shares.revokedOn', { date: when(link.revocadoEn) })
            : state === 'expired'
              ? t('shares.expiredOn', { date: when(link.expiraEn) })
              : t('shares.expires', { date: when(link.expiraEn) })}
        </span>
      </div>
      {state === 'active' ? (
        <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 })}>
          <a
            href={absoluteUrl(link.url)}
            target="_blank"
            rel="noopener noreferrer"
            aria-describedby={detailsId}
            className={css({ color: 'link', fontWeight: 'semibold', px: 2 })}
          >
            {t('shares.open')}
          </a>
          <button
            type="button"
            aria-describedby={detailsId}
            className={css(button.raw({ variant: 'ghost' }), { px: 3 })}
            onClick={() => void copyLink(absoluteUrl(link.url))}
          >
            {t('shares.copy')}
          </button>
          <button
            type="button"
            aria-describedby={detailsId}
            className={css(button.raw({ variant: 'ghost' }), { color: 'danger', px: 3 })}
            onClick={onRevoke}
          >
            {t('shares.revoke')}
          </button>
        </div>
      ) : null}
    </li>
  );
}
