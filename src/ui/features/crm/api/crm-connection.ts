/**
 * The adviser's CRM connection in the browser: one CRM-token machine per corporate (so every
 * component, and every list call, shares one connection and one single-flight refresh), with its
 * side effects provided here:
 *
 * - `loadStatus` `GET /api/crm/user`, `refresh` `POST /api/crm/refresh-token`, `disconnect`
 *   `DELETE /api/crm/user`;
 * - `authorise`: the spec's authorisation window (§7). The click opens the popup synchronously
 *   ({@link openCrmPopup}, so popup blockers allow it); here `POST /api/crm/autorizar` answers the
 *   provider's URL, the popup goes there, and the provider sends it back to
 *   `/corporativos/{c}/clientes?code&state`, where {@link completeCrmCallback} exchanges the code
 *   (`POST /api/crm/token`) and tells this window — BroadcastChannel `vitrina-crm` and
 *   `window.opener.postMessage` (same origin only) — then closes itself.
 * - `broadcast`: other tabs re-read the connection; `clearCrmState`: cached CRM answers dropped.
 *
 * Tokens never reach the browser: the messages carry only who is connected and until when.
 */

import { useSelector } from '@xstate/react';
import { createActor, fromPromise } from 'xstate';
import {
  crmTokenMachine,
  type CrmConnected,
  type CrmPopup,
  type CrmStatus,
  type CrmTokenActor,
} from '../../../../machines/crm-token.machine';
import { ApiRequestError, api, queryClient as appQueryClient } from '../../../lib/api';
import { crmKeys } from './crm';

export const CRM_CHANNEL = 'vitrina-crm';
const POPUP_NAME = 'vitrina-crm';

/** What the callback page tells the window that opened it. */
export type CrmCallbackMessage =
  | {
      type: 'vitrina-crm';
      ok: true;
      corporateId: string;
      info: CrmConnected['info'];
      expira: string;
    }
  | {
      type: 'vitrina-crm';
      ok: false;
      corporateId: string;
      reason: 'state' | 'other';
      message: string;
    }
  /** Sent by a window whose connection changed (`from`: that window, which ignores its own). */
  | { type: 'vitrina-crm'; changed: true; corporateId: string; from?: string };

/** This window, so it does not react to its own change messages. */
const WINDOW_ID = Math.random().toString(36).slice(2);

function isCallbackMessage(data: unknown): data is CrmCallbackMessage {
  return (
    !!data &&
    typeof data === 'object' &&
    (data as { type?: unknown }).type === 'vitrina-crm' &&
    typeof (data as { corporateId?: unknown }).corporateId === 'string'
  );
}

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CRM_CHANNEL);
}

/**
 * Opens the authorisation window on the click itself (about:blank, pointed at the provider once
 * the server answers). Null when the browser blocked it.
 */
export function openCrmPopup(): Window | null {
  const width = 520;
  const height = 680;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  try {
    return window.open(
      'about:blank',
      POPUP_NAME,
      `popup=yes,width=${width},height=${height},left=${left},top=${top}`,
    );
  } catch {
    return null;
  }
}

/** How often the opener looks whether the user closed the window. */
const CLOSED_POLL_MS = 500;

function reasonOf(error: unknown): { reason: 'config' | 'other'; message: string } {
  if (error instanceof ApiRequestError && error.status === 400)
    return { reason: 'config', message: error.message };
  return { reason: 'other', message: error instanceof Error ? error.message : '' };
}

async function authoriseInPopup(corporateId: string, popup: CrmPopup): Promise<CrmConnected> {
  const win = popup as CrmPopup & Partial<Pick<Window, 'location'>>;
  let url: string;
  try {
    ({ url } = await api<{ url: string }>('/api/crm/autorizar', {
      method: 'POST',
      body: { idCorporativo: corporateId },
    }));
  } catch (error) {
    popup.close();
    throw Object.assign(new Error(reasonOf(error).message), reasonOf(error));
  }
  if (popup.closed) throw Object.assign(new Error(''), { reason: 'popupClosed' });
  if (win.location) win.location.href = url;

  return new Promise<CrmConnected>((resolve, reject) => {
    const bc = channel();
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      bc?.close();
      window.removeEventListener('message', onWindowMessage);
      fn();
    };
    const onMessage = (data: unknown) => {
      if (!isCallbackMessage(data) || data.corporateId !== corporateId || 'changed' in data) return;
      if (data.ok) finish(() => resolve({ info: data.info, expira: data.expira }));
      else
        finish(() =>
          reject(
            Object.assign(new Error(data.message), { reason: data.reason, message: data.message }),
          ),
        );
    };
    const onWindowMessage = (e: MessageEvent) => {
      // Only this application's pages may speak for the connection.
      if (e.origin !== window.location.origin) return;
      onMessage(e.data);
    };
    if (bc) bc.onmessage = (e: MessageEvent) => onMessage(e.data);
    window.addEventListener('message', onWindowMessage);
    const poll = setInterval(() => {
      if (!popup.closed) return;
      // The callback posts before it closes; give a last message a moment to arrive.
      setTimeout(
        () => finish(() => reject(Object.assign(new Error(''), { reason: 'popupClosed' }))),
        CLOSED_POLL_MS,
      );
    }, CLOSED_POLL_MS);
  });
}

const actors = new Map<string, CrmTokenActor>();

function actorFor(corporateId: string): CrmTokenActor {
  const existing = actors.get(corporateId);
  if (existing) return existing;
  const machine = crmTokenMachine.provide({
    actors: {
      loadStatus: fromPromiseOf(({ corporateId: id }: { corporateId: string }) =>
        api<CrmStatus>('/api/crm/user', { query: { idCorporativo: id } }),
      ),
      authorise: fromPromiseOf(
        ({ corporateId: id, popup }: { corporateId: string; popup: CrmPopup }) =>
          authoriseInPopup(id, popup),
      ),
      refresh: fromPromiseOf(({ corporateId: id }: { corporateId: string }) =>
        api<{ expira: string }>('/api/crm/refresh-token', {
          method: 'POST',
          body: { idCorporativo: id },
        }),
      ),
      disconnect: fromPromiseOf(async ({ corporateId: id }: { corporateId: string }) => {
        await api('/api/crm/user', { method: 'DELETE', query: { idCorporativo: id } });
      }),
    },
    actions: {
      clearCrmState: () => {
        appQueryClient.removeQueries({ queryKey: crmKeys.corporate(corporateId) });
        // The CRM's lists (their source ids start with `crm-`); Vitrina's own records stay.
        appQueryClient.removeQueries({
          queryKey: ['leads', corporateId],
          predicate: (query) => String(query.queryKey[3]).startsWith('crm-'),
        });
      },
      broadcast: () => {
        const bc = channel();
        bc?.postMessage({ type: 'vitrina-crm', changed: true, corporateId, from: WINDOW_ID });
        bc?.close();
      },
    },
  });
  const actor = createActor(machine, { input: { corporateId } });
  actors.set(corporateId, actor);
  actor.start();
  // Another tab connected or disconnected: ask the server again.
  const bc = channel();
  if (bc)
    bc.onmessage = (e: MessageEvent) => {
      const data: unknown = e.data;
      if (
        isCallbackMessage(data) &&
        data.corporateId === corporateId &&
        'changed' in data &&
        data.from !== WINDOW_ID
      )
        actor.send({ type: 'crm.changed' });
    };
  return actor;
}

/** A provided actor from a function of its input. */
function fromPromiseOf<I, O>(fn: (input: I) => Promise<O>) {
  return fromPromise<O, I>(({ input }) => fn(input));
}

/** The connection of the corporate, for the status strip, the list and the lead detail. */
export function useCrmConnection(corporateId: string) {
  const actor = actorFor(corporateId);
  const state = useSelector(
    actor,
    (s) => ({
      value: s.value,
      tipo: s.context.tipo,
      info: s.context.info,
      expira: s.context.expira,
      failure: s.context.failure,
      busy: s.hasTag('busy'),
      connected: s.hasTag('connected'),
      crmSource: s.hasTag('crmSource'),
      reconnectPrompt: s.hasTag('reconnectPrompt'),
      failed: s.matches('failed'),
      authorising: s.matches('authorising') || s.matches({ reauthorising: 'window' }),
      refreshing: s.matches('refreshing'),
      disconnecting: s.matches('disconnecting'),
      disconnected: s.matches('disconnected'),
      checking: s.matches('checking'),
    }),
    shallowEqual,
  );
  return {
    actor,
    ...state,
    /** Call from the click handler itself: the popup opens synchronously. */
    connect: () => actor.send({ type: 'crm.connect', popup: openCrmPopup() }),
    disconnect: () => actor.send({ type: 'crm.disconnect' }),
    retry: () => actor.send({ type: 'crm.retry' }),
  };
}

function shallowEqual<T extends Record<string, unknown>>(a: T, b: T): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.is(a[k], b[k]) || JSON.stringify(a[k]) === JSON.stringify(b[k]))
  );
}

/** Starts (or finds) the corporate's connection machine, without React. */
export function startCrmConnection(corporateId: string): CrmTokenActor {
  return actorFor(corporateId);
}

/** The machine of a corporate if a page started it (the CRM lead source asks without starting one). */
export function existingCrmActor(corporateId: string): CrmTokenActor | undefined {
  return actors.get(corporateId);
}

/** The callback's query: the provider's `code` and our `state` (Zoho adds `accounts-server`). */
export function crmCallbackParams(
  search: string,
): { code: string; state: string; accountsServer: string | null } | null {
  const params = new URLSearchParams(search);
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state) return null;
  return { code, state, accountsServer: params.get('accounts-server') };
}

/** The address without the callback's parameters (they are single-use and must not stay). */
export function withoutCallbackParams(href: string): string {
  const url = new URL(href);
  for (const key of [
    'code',
    'state',
    'location',
    'accounts-server',
    'scope',
    'error',
    'error_description',
  ])
    url.searchParams.delete(key);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Back from the provider in the popup: exchanges the code on the server, tells the opener (same
 * origin) and every tab, and answers whether this window was a popup it may close.
 */
export async function completeCrmCallback(
  corporateId: string,
  params: { code: string; state: string; accountsServer: string | null },
): Promise<{ ok: true; popup: boolean } | { ok: false; message: string; popup: boolean }> {
  const opener = window.opener as Window | null;
  const popup = opener !== null && opener !== window;
  let message: CrmCallbackMessage;
  try {
    const answer = await api<{ conectado: boolean; info: CrmConnected['info']; expira: string }>(
      '/api/crm/token',
      {
        method: 'POST',
        body: {
          code: params.code,
          state: params.state,
          idCorporativo: corporateId,
          ...(params.accountsServer ? { accountsServer: params.accountsServer } : {}),
        },
      },
    );
    message = {
      type: 'vitrina-crm',
      ok: true,
      corporateId,
      info: answer.info,
      expira: answer.expira,
    };
  } catch (error) {
    const text = error instanceof Error ? error.message : '';
    message = {
      type: 'vitrina-crm',
      ok: false,
      corporateId,
      reason: error instanceof ApiRequestError && error.status === 400 ? 'state' : 'other',
      message: text,
    };
  }
  const bc = channel();
  bc?.postMessage(message);
  bc?.postMessage({ type: 'vitrina-crm', changed: true, corporateId, from: WINDOW_ID });
  bc?.close();
  if (popup) {
    try {
      opener.postMessage(message, window.location.origin);
    } catch {
      // The opener went elsewhere; the BroadcastChannel message is enough.
    }
  }
  // This tab's own machine (a full-page return, not a popup) reads the connection again.
  actors.get(corporateId)?.send({ type: 'crm.changed' });
  return message.ok ? { ok: true, popup } : { ok: false, message: message.message, popup };
}
