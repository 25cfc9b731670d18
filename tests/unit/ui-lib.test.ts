import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, api, apiUrl, onUnauthorized } from '../../src/ui/lib/api';
import { errorMessage } from '../../src/ui/lib/errors';
import { onlyValidated } from '../../src/ui/lib/route-search';
import { TOAST_DURATION_MS, dismissToast, getToasts, toast } from '../../src/ui/lib/toast';

const locales = join(import.meta.dirname, '../../src/ui/i18n/locales');
const bundle = (lng: string) =>
  JSON.parse(readFileSync(join(locales, lng, 'errors.json'), 'utf8')) as Record<string, unknown>;

beforeAll(async () => {
  await i18next.init({
    lng: 'es',
    fallbackLng: 'es',
    ns: ['errors'],
    resources: { es: { errors: bundle('es') }, en: { errors: bundle('en') } },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function respond(status: number, body: unknown) {
  const fetch = vi.fn((_url: string, _init: RequestInit) =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('api()', () => {
  it('sends same-origin credentials, JSON and the interface language', async () => {
    const fetch = respond(200, { ok: true });
    await i18next.changeLanguage('en');
    await api('/api/users/1', { method: 'PUT', body: { id: '1' } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/users/1');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"id":"1"}');
    expect((init.headers as Record<string, string>)['Accept-Language']).toBe('en');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    await i18next.changeLanguage('es');
  });

  it('throws the first item of an error answer as ApiRequestError (spec §8)', async () => {
    respond(403, [
      { errorCode: 'FORBIDDEN', message: 'No tienes permisos para ver el corporativo' },
    ]);
    const error = await api('wsObtenerCorporativo', { query: { slug: 'x' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      status: 403,
      errorCode: 'FORBIDDEN',
      message: 'No tienes permisos para ver el corporativo',
    });
  });

  it("throws a 2xx answer whose first data item has status 'error'", async () => {
    respond(200, [{ status: 'error', msg: 'falló' }]);
    await expect(api('wsObtenerAlgo')).rejects.toMatchObject({ message: 'falló' });
  });

  it('tells the session about a 401, except for the sign-in itself', async () => {
    const listener = vi.fn();
    const off = onUnauthorized(listener);
    respond(401, [{ errorCode: 'UNAUTHENTICATED', message: 'Inicia sesión para continuar' }]);
    await api('wsObtenerCorporativos').catch(() => undefined);
    await api('/api/auth/login', { method: 'POST', body: {} }).catch(() => undefined);
    off();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('an answer cut off while its body is read is a network failure (status 0), not a bug', async () => {
    // What a page that is unloading sees: headers arrived, the body never does. The session
    // machine retries such a failure instead of logging out (which revokes the session).
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new TypeError('network error'));
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(cut, { status: 200 }))),
    );
    const error = await api('wsObtenerUsuario').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 0, errorCode: 'NETWORK' });
  });

  it('builds call URLs with the query, leaving out empty values', () => {
    expect(
      apiUrl('wsObtenerDesarrollos', {
        idCorporativo: 'c 1',
        ocultarDesarrollosSinUnidades: 'si',
        x: undefined,
        y: null,
      }),
    ).toBe('/api/wsObtenerDesarrollos?idCorporativo=c+1&ocultarDesarrollosSinUnidades=si');
  });
});

describe('errorMessage (spec §8)', () => {
  it('object with a mapped code → the mapped message; else its message or msg; else the generic one', () => {
    expect(errorMessage(new ApiRequestError(0, 'NETWORK', '', null))).toBe(bundle('es').network);
    expect(
      errorMessage({
        errorCode: 'BAD_CREDENTIALS',
        message: 'El correo o la contraseña no son correctos',
      }),
    ).toBe('El correo o la contraseña no son correctos');
    expect(errorMessage({ code: 'X', msg: 'texto' })).toBe('texto');
    expect(errorMessage({})).toBe(
      'Ocurrió un error inesperado, por favor contacte a soporte técnico',
    );
    expect(errorMessage(undefined)).toBe(
      'Ocurrió un error inesperado, por favor contacte a soporte técnico',
    );
  });
  it('a string is shown as is, or translated through the code map', () => {
    expect(errorMessage('Algo pasó')).toBe('Algo pasó');
    expect(errorMessage('no_quotes_this_week')).toBe('No hay cotizaciones esta semana');
  });
  it('speaks English when the interface does', async () => {
    await i18next.changeLanguage('en');
    expect(errorMessage({})).toBe('An unexpected error occurred, please contact technical support');
    await i18next.changeLanguage('es');
  });
});

describe('toasts', () => {
  it('close themselves after 5000 ms', () => {
    vi.useFakeTimers();
    toast.error('uno');
    toast.success('dos');
    expect(getToasts().map((t) => t.message)).toEqual(['uno', 'dos']);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(getToasts()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
    expect(TOAST_DURATION_MS).toBe(5000);
  });
  it('show a repeated message once, and its id closes the one on screen', () => {
    vi.useFakeTimers();
    const first = toast.error('tres');
    const again = toast.error('tres');
    expect(again).toBe(first);
    expect(getToasts().map((t) => t.message)).toEqual(['tres']);
    dismissToast(again);
    expect(getToasts()).toHaveLength(0);
    vi.runOnlyPendingTimers();
  });
});

describe('onlyValidated (route search)', () => {
  const validate = (s: Record<string, unknown>): { q?: string } =>
    typeof s.q === 'string' ? { q: s.q } : {};
  it('answers undefined for a key the validator read and refused, over the raw value', () => {
    expect(onlyValidated(validate)({ q: 1712345 })).toEqual({ q: undefined });
    expect(Object.hasOwn(onlyValidated(validate)({ q: 1712345 }), 'q')).toBe(true);
    expect(onlyValidated(validate)({ q: 'casa' })).toEqual({ q: 'casa' });
  });
  it('leaves keys the validator never reads as they are (an authorisation’s code and state)', () => {
    const out = onlyValidated(validate)({ code: 12345, state: 'x' });
    expect(Object.hasOwn(out, 'code')).toBe(false);
    expect(Object.hasOwn(out, 'state')).toBe(false);
  });
});
