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
import { useOptionalCorporateContext } from '../layouts/corporate-context';
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

/** The language the adviser chose for buyers' links on this device (issue 19). */
const SHARE_LANGUAGE_KEY = 'vitrina:idioma-enlace';

function storedShareLanguage(): 'es' | 'en' | null {
  try {
    const value = localStorage.getItem(SHARE_LANGUAGE_KEY);
    return value === 'es' || value === 'en' ? value : null;
  } catch {
    return null;
  }
}

/**
 * The language a new link opens in, on a bilingual corporate: the adviser's choice
 * ({@link ShareLanguagePicker}), else the interface's; null on a corporate with Spanish only.
 */
function useShareLanguage(): ['es' | 'en' | null, (lang: 'es' | 'en') => void] {
  const context = useOptionalCorporateContext();
  const { i18n } = useTranslation();
  const [chosen, setChosen] = useState(storedShareLanguage);
  if (!context?.corporate.multiIdioma) return [null, () => undefined];
  const choose = (lang: 'es' | 'en') => {
    setChosen(lang);
    try {
      localStorage.setItem(SHARE_LANGUAGE_KEY, lang);
    } catch {
      // Not remembered; this link still carries it.
    }
  };
  return [chosen ?? (i18n.language === 'en' ? 'en' : 'es'), choose];
}

/** The share link with the buyer's language (`?lang=en`), which the shared page opens in. */
export function withLanguage(url: string, lang: 'es' | 'en' | null): string {
  if (!lang) return url;
  const u = new URL(url, 'http://localhost');
  u.searchParams.set('lang', lang);
  return url.startsWith('http') ? u.toString() : `${u.pathname}${u.search}`;
}

/** The adviser's choice of the buyer's language (bilingual corporates only). */
export function ShareLanguagePicker() {
  const { t } = useTranslation('quotes');
  const [lang, choose] = useShareLanguage();
  const id = useId();
  if (!lang) return null;
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: 2, fontSize: 'sm' })}>
      <label htmlFor={id}>{t('shares.language')}</label>
      <select
        id={id}
        value={lang}
        onChange={(e) => choose(e.target.value === 'en' ? 'en' : 'es')}
        className={css({
          h: 9,
          px: 2,
          borderRadius: 'md',
          border: '1px solid token(colors.border)',
          bg: 'surface',
        })}
      >
        <option value="es">{t('shares.languages.es')}</option>
        <option value="en">{t('shares.languages.en')}</option>
      </select>
    </div>
  );
}

/**
 * Creates a new share link of a quotation, copies it (with the spec's toasts, §8) and refreshes
 * the quotation's list of links; the mutation's data is the absolute URL. On a bilingual
 * corporate the link names the buyer's language the adviser chose (issue 19).
 */
export function useShareQuotation(corporateId: string, quotationId: string) {
  const queryClient = useQueryClient();
  const [lang] = useShareLanguage();
  return useMutation({
    mutationFn: async () =>
      withLanguage(absoluteUrl((await shareQuotation(corporateId, quotationId)).url), lang),
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
  // A quotation saved without its zone reads in the corporate's, never the browser's.
  const corporateZone = useOptionalCorporateContext()?.corporate.zonaHoraria;
  const zone = timeZone || corporateZone;
  const when = (iso: string) => formatDateTime(iso, i18n.language, zone);

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
  if (links.length === 0) return <ShareLanguagePicker />;
  // The state as of the list's answer: a render stays pure, and a refetch brings it up to date.
  const asOf = query.dataUpdatedAt;

  return (
    <section aria-labelledby={headingId} data-testid="share-links">
      <h4 id={headingId} className={css({ fontWeight: 'semibold', fontSize: 'sm', mb: 2 })}>
        {t('shares.title')}
      </h4>
      <ShareLanguagePicker />
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
  // Open and copy in the buyer's language the adviser chose (issue 19).
  const [lang] = useShareLanguage();
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
            href={withLanguage(absoluteUrl(link.url), lang)}
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
            onClick={() => void copyLink(withLanguage(absoluteUrl(link.url), lang))}
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
