/**
 * The clients page's CRM strip (issue 17 point 3): who is connected to the corporate's CRM and
 * until when, with connect / reconnect / disconnect (disconnect confirms, then empties the
 * credentials and clears the local CRM state). While the CRM needs the user again it is the
 * reconnect prompt of spec §4. Also the end of the authorisation window: back from the provider
 * with `code` and `state`, this page exchanges them ({@link CrmCallbackNotice}).
 */

import { useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import type { CrmFailure } from '../../../../machines/crm-token.machine';
import { Modal } from '../../../components/modal';
import { button } from '../../../components/styles';
import { useOptionalCorporateContext } from '../../../layouts/corporate-context';
import { useDateFormat } from '../../../lib/dates';
import {
  completeCrmCallback,
  crmCallbackParams,
  useCrmConnection,
  withoutCallbackParams,
} from '../api/crm-connection';

const strip = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: 2,
  px: 3,
  py: 2,
  borderRadius: 'lg',
  border: '1px solid',
  borderColor: 'border',
  bg: 'rgba(31,111,235,0.04)',
  fontSize: 'sm',
});
const warn = css({ bg: 'rgba(176,96,0,0.08)', borderColor: 'rgba(176,96,0,0.45)' });
const small = css({ minH: 10, px: 3 });

function failureText(t: (key: string, o?: Record<string, unknown>) => string, f: CrmFailure) {
  const reason = t(`strip.failure.${f.reason}`);
  return f.message && f.reason !== 'popupBlocked' && f.reason !== 'popupClosed'
    ? `${reason} ${f.message}`
    : reason;
}

export function CrmStatusStrip({ corporateId }: { corporateId: string }) {
  const { t } = useTranslation('crm');
  const formatDate = useDateFormat(useOptionalCorporateContext()?.corporate.zonaHoraria);
  const crm = useCrmConnection(corporateId);
  const [confirming, setConfirming] = useState(false);
  const tipo = crm.tipo ?? '';

  if (crm.checking) return null;
  // No CRM configured for the corporate: nothing to connect to.
  if (crm.disconnected && !crm.tipo) return null;

  const until = crm.expira !== null ? formatDate(new Date(crm.expira), 'dateTime') : null;
  const who = crm.info
    ? crm.info.name
      ? `${crm.info.name} (${crm.info.email})`
      : crm.info.email
    : '';

  let text: string;
  let actions: React.ReactNode = null;
  const disconnectButton = (
    <button
      type="button"
      className={cx(button({ variant: 'ghost' }), small)}
      onClick={() => setConfirming(true)}
    >
      {t('strip.disconnect')}
    </button>
  );
  if (crm.connected) {
    text = until
      ? t('strip.connected', { tipo, who, until })
      : t('strip.connectedNoExpiry', { tipo, who });
    actions = disconnectButton;
  } else if (crm.disconnecting) {
    text = t('strip.disconnecting', { tipo });
  } else if (crm.authorising) {
    text = t('strip.authorising', { tipo });
  } else if (crm.refreshing) {
    text = t('strip.refreshing', { tipo });
  } else if (crm.reconnectPrompt) {
    text = t('strip.reconnectPrompt', { tipo });
    actions = (
      <>
        <button type="button" className={cx(button(), small)} onClick={crm.connect}>
          {t('strip.reconnect')}
        </button>
        {disconnectButton}
      </>
    );
  } else if (crm.failed && crm.failure) {
    text = failureText(t, crm.failure);
    actions = (
      <>
        <button type="button" className={cx(button(), small)} onClick={crm.connect}>
          {t('strip.tryAgain')}
        </button>
        <button
          type="button"
          className={cx(button({ variant: 'ghost' }), small)}
          onClick={crm.retry}
        >
          {t('strip.dismiss')}
        </button>
      </>
    );
  } else {
    text = t('strip.disconnected', { tipo });
    actions = (
      <button type="button" className={cx(button(), small)} onClick={crm.connect}>
        {t('strip.connect', { tipo })}
      </button>
    );
  }

  return (
    <div
      data-testid="crm-strip"
      className={cx(strip, crm.reconnectPrompt || crm.failed ? warn : undefined)}
      aria-busy={crm.busy}
    >
      {/* Only the sentence is announced when it changes, not the buttons beside it. */}
      <span role="status" className={css({ flex: '1 1 14rem', minW: 0 })}>
        {text}
      </span>
      {actions}
      {confirming ? (
        <Modal title={t('strip.disconnectTitle', { tipo })} onClose={() => setConfirming(false)}>
          <p className={css({ mb: 5 })}>{t('strip.disconnectBody', { tipo })}</p>
          <div
            className={css({
              display: 'flex',
              gap: 3,
              justifyContent: 'flex-end',
              flexWrap: 'wrap',
            })}
          >
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() => setConfirming(false)}
            >
              {t('strip.cancel')}
            </button>
            <button
              type="button"
              className={button()}
              onClick={() => {
                setConfirming(false);
                crm.disconnect();
              }}
            >
              {t('strip.disconnectConfirm')}
            </button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}

/** Callback codes already sent: each is single-use, and a re-render must not send it twice. */
const handled = new Set<string>();

type CallbackResult = { ok: boolean; message: string; popup: boolean } | null;

/**
 * The end of the authorisation window, on the page the provider returns to: exchanges `code`
 * and `state`, tells the opener, closes a popup, and removes the parameters from the address.
 * A window that was not a popup (or could not close) says so.
 */
export function CrmCallbackNotice({ corporateId }: { corporateId: string }) {
  const { t } = useTranslation('crm');
  const router = useRouter();
  const [result, setResult] = useState<CallbackResult>(null);
  const [working, setWorking] = useState(false);

  useEffect(() => {
    const params = crmCallbackParams(window.location.search);
    if (!params || handled.has(params.code)) return;
    handled.add(params.code);
    setWorking(true);
    void completeCrmCallback(corporateId, params).then((answer) => {
      setWorking(false);
      void router.navigate({ href: withoutCallbackParams(window.location.href), replace: true });
      if (answer.ok && answer.popup) {
        window.close();
      }
      setResult(
        answer.ok
          ? { ok: true, message: '', popup: answer.popup }
          : { ok: false, message: answer.message, popup: answer.popup },
      );
    });
  }, [corporateId, router]);

  if (working)
    return (
      <p role="status" className={strip}>
        {t('callback.working')}
      </p>
    );
  if (!result) return null;
  return (
    <p
      role={result.ok ? 'status' : 'alert'}
      data-testid="crm-callback"
      className={cx(strip, result.ok ? undefined : warn)}
    >
      {result.ok ? t('callback.connected') : t('callback.failed', { message: result.message })}
    </p>
  );
}
