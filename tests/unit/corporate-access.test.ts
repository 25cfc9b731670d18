import { QueryClient } from '@tanstack/react-query';
import { isNotFound } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/core/types';
import {
  CorporateForbiddenError,
  corporateQuery,
  isCorporateForbidden,
  requireMembership,
} from '../../src/ui/lib/corporate-access';
import type { SessionCorporate } from '../../src/machines/session.machine';

afterEach(() => vi.unstubAllGlobals());

function respond(status: number, body: unknown) {
  const fetch = vi.fn((_url: string) =>
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

const user = {
  id: 'u1',
  corporativos: ['c1'],
  corporativosRegistro: ['c2'],
  roles: { c1: 'r1' },
} as unknown as User;
const corporates = [
  { id: 'c1', slug: 'grupo-horizonte', aprobado: true },
  { id: 'c2', slug: 'desarrollos-pacifico', aprobado: false },
] as unknown as SessionCorporate[];

describe('requireMembership: the corporate route’s beforeLoad (spec §6)', () => {
  it('an approved member as the session knows them passes without asking the server', async () => {
    const fetch = respond(500, []);
    await requireMembership(new QueryClient(), user, corporates, 'grupo-horizonte');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a pending or unknown membership asks the server: 403 is the 403 page', async () => {
    const fetch = respond(403, [{ errorCode: 'FORBIDDEN', message: 'No' }]);
    const error = await requireMembership(
      new QueryClient(),
      user,
      corporates,
      'desarrollos-pacifico',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorporateForbiddenError);
    expect(isCorporateForbidden(error)).toBe(true);
    expect(fetch.mock.calls[0]![0]).toContain('slug=desarrollos-pacifico');
  });

  it('a slug the server does not know is the route’s not-found, with the slug', async () => {
    respond(404, [{ errorCode: 'NOT_FOUND', message: 'No se encontró corporativo' }]);
    const error = await requireMembership(new QueryClient(), user, corporates, 'no-existe').catch(
      (e: unknown) => e,
    );
    expect(isNotFound(error)).toBe(true);
    expect((error as { data: unknown }).data).toEqual({ corporateSlug: 'no-existe' });
  });

  it('a membership newer than the session passes, and the corporate is then in the cache', async () => {
    respond(200, { id: 'c3', slug: 'nuevo' });
    const client = new QueryClient();
    await requireMembership(client, user, corporates, 'nuevo');
    expect(client.getQueryData(corporateQuery('nuevo').queryKey)).toEqual({
      id: 'c3',
      slug: 'nuevo',
    });
  });
});
