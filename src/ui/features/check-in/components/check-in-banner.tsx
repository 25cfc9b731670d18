/**
 * The check-in banner of the developments list's top bar (spec §2 Top bar; issue 14): checked
 * in, the showroom and the time left with a check-out button; not checked in, a check-in button
 * that starts the machine (machines/check-in.machine.ts). What went wrong (permission denied,
 * too far, …) opens a panel under the bar with the QR alternative. React only renders the
 * machine's state; on a phone the banner is a compact pill and the panel spans the screen.
 */

import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import { checkInSecondsLeft, type CheckIn } from '../../../../core/check-in';
import { mayCheckIn } from '../../../../core/permissions';
import { checkInMachine, type Candidate } from '../../../../machines/check-in.machine';
import { getCoreClient } from '../../../../workers/core-client';
import { CloseIcon, LogoutIcon, MapPinIcon } from '../../../components/icons';
import { button } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import {
  onLiveChange,
  onLiveReconnect,
  useLiveStream,
  type LiveChange,
} from '../../../lib/live-stream';
import { toast } from '../../../lib/toast';
import { checkOut, loadCheckIn, locateDevice, saveCheckIn, showroomsQuery } from '../api/check-in';
import { useNow } from '../../../lib/use-now';
import { formatCountdown, formatDistance, localeOf } from '../utils/format';

/** A check-in change of the live stream (server/live/routes.ts). */
type CheckInChange = LiveChange & { idUsuario?: string; idShowroom?: string };

export function CheckInBanner({
  folio,
  onFolioUsed,
}: {
  /** The `folio` query parameter of a QR link. */
  folio: string | null;
  /** Drops the folio from the address once used. */
  onFolioUsed: () => void;
}) {
  const { corporate, user, role } = useCorporateContext();
  if (!role || !mayCheckIn(role)) return null;
  return <Banner key={`${corporate.id}:${user.id}`} folio={folio} onFolioUsed={onFolioUsed} />;
}

function Banner({ folio, onFolioUsed }: { folio: string | null; onFolioUsed: () => void }) {
  const { t, i18n } = useTranslation('checkin');
  const { corporate, user } = useCorporateContext();
  const showrooms = useQuery(showroomsQuery(corporate.id));
  const folioUsed = useRef(onFolioUsed);
  folioUsed.current = onFolioUsed;
  const flow = useActorRef(
    checkInMachine.provide({
      actors: {
        loadCheckIn: fromPromise(() => loadCheckIn(corporate.id, user.id)),
        locate: fromPromise(() => locateDevice()),
        evaluate: fromPromise(({ input }) =>
          getCoreClient().checkInCandidate(input.showrooms, input.position),
        ),
        saveCheckIn: fromPromise(({ input }) => saveCheckIn(corporate.id, input)),
        checkOut: fromPromise(({ input }) => checkOut(input)),
      },
      actions: {
        // Spec §8: check-in failures, 'sin checkin' and a denied geolocation are only logged.
        log: (_, message) => console.info(`[vitrina] check-in: ${message}`),
        folioDone: () => folioUsed.current(),
      },
    }),
    { input: { showrooms: showrooms.data ?? [], folio } },
  );
  const list = showrooms.data;
  useEffect(() => {
    if (list) flow.send({ type: 'checkIn.sync', showrooms: list });
  }, [flow, list]);
  // A QR link opened while the page is already up (the phone's camera opened it again).
  const lastFolio = useRef(folio);
  useEffect(() => {
    if (folio && folio !== lastFolio.current) flow.send({ type: 'checkIn.qr', folio });
    lastFolio.current = folio;
  }, [flow, folio]);

  // Checked out elsewhere (a host administrator, the expiry, another tab): read it again.
  useLiveStream();
  useEffect(() => {
    const stop = onLiveChange((change: CheckInChange, client) => {
      if (change.corporateId !== corporate.id) return;
      if (
        (change.type === 'CheckedIn' || change.type === 'CheckedOut') &&
        change.idUsuario === user.id
      )
        flow.send({ type: 'checkIn.refresh' });
      if (change.type === 'ShowroomConfigured')
        void client.invalidateQueries({ queryKey: showroomsQuery(corporate.id).queryKey });
    });
    const stopReconnect = onLiveReconnect(() => flow.send({ type: 'checkIn.refresh' }));
    return () => {
      stop();
      stopReconnect();
    };
  }, [flow, corporate.id, user.id]);

  const value = useSelector(flow, (s) => s.value);
  const busy = useSelector(flow, (s) => s.hasTag('busy'));
  const checkIn = useSelector(flow, (s) => s.context.checkIn);
  const candidate = useSelector(flow, (s) => s.context.candidate);
  const failure = useSelector(flow, (s) => s.context.failure);
  const expired = useSelector(flow, (s) => s.context.expired);

  // A check-in just made, or the 12 hours just over: say so once.
  const previous = useRef(value);
  useEffect(() => {
    if (previous.current === 'saving' && value === 'checkedIn' && checkIn)
      toast.success(t('banner.done', { showroom: checkIn.nombreShowroom }));
    if (previous.current === 'checkingOut' && value === 'idle') toast.info(t('banner.outDone'));
    if (previous.current === 'checkedIn' && value === 'idle' && expired)
      toast.info(t('banner.expired'));
    previous.current = value;
  }, [value, checkIn, expired, t]);

  const message = panelMessage(value, candidate, failure?.message ?? null, t, i18n.language);

  return (
    <div
      role="region"
      aria-label={t('banner.region')}
      data-testid="check-in-banner"
      data-state={String(value)}
      className={css({
        position: { base: 'static', md: 'relative' },
        display: 'flex',
        alignItems: 'center',
        minW: 0,
      })}
    >
      {checkIn && (value === 'checkedIn' || value === 'checkingOut') ? (
        <CheckedInPill
          checkIn={checkIn}
          busy={busy}
          onCheckOut={() => flow.send({ type: 'checkIn.checkOut' })}
        />
      ) : (
        <button
          type="button"
          className={css(button.raw({ variant: 'primary' }), {
            px: { base: 3, md: 4 },
            whiteSpace: 'nowrap',
            flexShrink: 0,
          })}
          onClick={() => flow.send({ type: 'checkIn.start' })}
          disabled={busy}
          aria-busy={busy}
          aria-label={busy ? undefined : t('banner.checkInLabel')}
        >
          <span
            aria-hidden="true"
            className={css({ display: 'inline-flex', '& svg': { w: 4, h: 4 } })}
          >
            <MapPinIcon />
          </span>
          {value === 'locating' || value === 'evaluating'
            ? t('banner.locating')
            : value === 'saving'
              ? t('banner.saving')
              : value === 'loading'
                ? t('banner.loading')
                : t('banner.checkIn')}
        </button>
      )}
      {message ? (
        <div
          role="alert"
          data-testid="check-in-panel"
          className={css({
            position: { base: 'fixed', md: 'absolute' },
            top: { base: 16, md: 'calc(100% + 10px)' },
            left: { base: 2, md: 'auto' },
            right: { base: 2, md: 0 },
            w: { md: '22rem' },
            zIndex: 40,
            bg: 'surface',
            border: '1px solid',
            borderColor: 'border',
            borderRadius: 'xl',
            boxShadow: '0 12px 32px rgba(10,20,35,0.18)',
            p: 4,
            display: 'flex',
            flexDirection: 'column',
            gap: 3,
          })}
        >
          <div className={css({ display: 'flex', gap: 2, alignItems: 'flex-start' })}>
            <p className={css({ flex: 1, fontSize: 'sm', lineHeight: 1.5 })}>{message.text}</p>
            <button
              type="button"
              aria-label={t('banner.close')}
              onClick={() => flow.send({ type: 'checkIn.cancel' })}
              className={css({
                display: 'grid',
                placeItems: 'center',
                w: 8,
                h: 8,
                flexShrink: 0,
                borderRadius: 'md',
                cursor: 'pointer',
                color: 'muted',
                _hover: { bg: 'rgba(0,0,0,0.05)' },
                '& svg': { w: 4, h: 4 },
              })}
            >
              <CloseIcon />
            </button>
          </div>
          {message.qr ? (
            <p className={css({ fontSize: 'sm', color: 'muted' })}>{t('banner.qrHint')}</p>
          ) : null}
          {message.retry ? (
            <button
              type="button"
              className={`${button({ variant: 'ghost' })} ${css({ alignSelf: 'flex-start' })}`}
              onClick={() => flow.send({ type: 'checkIn.start' })}
            >
              {t('banner.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function CheckedInPill({
  checkIn,
  busy,
  onCheckOut,
}: {
  checkIn: CheckIn;
  busy: boolean;
  onCheckOut: () => void;
}) {
  const { t } = useTranslation('checkin');
  const now = useNow(1000);
  const left = formatCountdown(checkInSecondsLeft(checkIn.fechaAlta._seconds, new Date(now)));
  return (
    <div
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: { base: 1, md: 2 },
        minW: 0,
        flexShrink: 0,
        pl: { base: 2.5, sm: 3 },
        pr: 1,
        py: 1,
        borderRadius: 'full',
        bg: 'rgba(26,127,55,0.1)',
        border: '1px solid rgba(26,127,55,0.35)',
      })}
    >
      <span
        aria-hidden="true"
        className={css({
          display: { base: 'none', sm: 'inline-flex' },
          color: '#1a7f37',
          '& svg': { w: 4, h: 4 },
        })}
      >
        <MapPinIcon />
      </span>
      <span
        data-testid="check-in-status"
        role="timer"
        aria-label={t('banner.statusLabel', { showroom: checkIn.nombreShowroom, time: left })}
        className={css({
          display: 'flex',
          alignItems: 'baseline',
          gap: 2,
          minW: 0,
          fontSize: 'sm',
        })}
      >
        <span
          className={css({
            display: { base: 'none', md: 'inline' },
            fontWeight: 'semibold',
            maxW: { md: '9rem', xl: '14rem' },
            truncate: true,
          })}
        >
          {checkIn.nombreShowroom}
        </span>
        <span
          data-testid="check-in-countdown"
          className={css({
            fontVariantNumeric: 'tabular-nums',
            fontWeight: 'medium',
            whiteSpace: 'nowrap',
          })}
        >
          <span className={css({ display: { base: 'none', sm: 'inline' } })}>
            {t('banner.timeLeft', { time: left })}
          </span>
          <span className={css({ display: { base: 'inline', sm: 'none' } })}>{left}</span>
        </span>
      </span>
      <button
        type="button"
        onClick={onCheckOut}
        disabled={busy}
        aria-busy={busy}
        aria-label={t('banner.checkOutLabel', { showroom: checkIn.nombreShowroom })}
        className={css({
          minH: 9,
          minW: 9,
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          px: { base: 2, md: 3 },
          borderRadius: 'full',
          border: 'none',
          bg: 'surface',
          fontSize: 'sm',
          fontWeight: 'semibold',
          cursor: 'pointer',
          whiteSpace: 'nowrap',
          boxShadow: '0 1px 2px rgba(0,0,0,0.12)',
          _hover: { color: 'primary' },
          _disabled: { opacity: 0.6, cursor: 'not-allowed' },
          _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
        })}
      >
        <span className={css({ display: { base: 'none', sm: 'inline' } })}>
          {busy ? t('banner.checkingOut') : t('banner.checkOut')}
        </span>
        <span
          aria-hidden="true"
          className={css({ display: { base: 'inline-flex', sm: 'none' }, '& svg': { w: 4, h: 4 } })}
        >
          <LogoutIcon />
        </span>
      </button>
    </div>
  );
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What the panel under the bar says in a state, and what it offers. */
function panelMessage(
  value: unknown,
  candidate: Candidate | null,
  failure: string | null,
  t: Translate,
  language: string,
): { text: string; qr: boolean; retry: boolean } | null {
  switch (value) {
    case 'permissionDenied':
      return { text: t('banner.denied'), qr: true, retry: true };
    case 'unavailable':
      return { text: t('banner.unavailable'), qr: true, retry: true };
    case 'tooFar':
      return candidate?.kind === 'tooFar'
        ? {
            text: t('banner.tooFar', {
              distance: formatDistance(candidate.distanciaKm, language),
              showroom: candidate.showroom.nombre,
              radius: formatDistance(candidate.radioKm, language),
            }),
            qr: true,
            retry: true,
          }
        : { text: failure ?? t('banner.unavailable'), qr: true, retry: true };
    case 'inaccurate':
      return candidate?.kind === 'inaccurate'
        ? {
            text: t('banner.inaccurate', {
              accuracy: Math.round(candidate.accuracy).toLocaleString(localeOf(language)),
              max: candidate.maxAccuracy.toLocaleString(localeOf(language)),
            }),
            qr: true,
            retry: true,
          }
        : null;
    case 'noShowrooms':
      return { text: t('banner.noShowrooms'), qr: false, retry: false };
    case 'failed':
      return { text: failure ?? '', qr: false, retry: true };
    default:
      return null;
  }
}
