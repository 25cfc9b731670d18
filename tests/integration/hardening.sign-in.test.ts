/**
 * The sign-in throttle (issue 13, defect 4): counting is atomic (a burst checks only what the
 * limit allows), guessing is slowed by a growing delay rather than a lockout, the owner signs in
 * from another address meanwhile, and the client address comes from X-Forwarded-For only under
 * TRUST_PROXY.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { SIGN_IN_THROTTLE } from '../../src/server/auth/throttle';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { describeBackends, openSeeded, type Backend } from './support/backends';

type Rt = Awaited<ReturnType<Backend['open']>>;
type ApiErrorBody = { errorCode: string; message: string; retryAfter?: number }[];

describeBackends('hardening: sign-in throttle', (backend) => {
  let rt: Rt;
  let now = new Date('2026-11-22T10:00:00Z');
  /** Behind one trusted proxy (TRUST_PROXY=1), and without one. */
  let proxied: ReturnType<typeof createApp>;
  let direct: ReturnType<typeof createApp>;

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    proxied = createApp({ ...rt.deps, trustProxy: 1 });
    direct = createApp({ ...rt.deps, trustProxy: 0 });
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const later = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };
  const login = async (
    app: ReturnType<typeof createApp>,
    email: string,
    password: string,
    headers: Record<string, string> = {},
  ): Promise<Response> =>
    app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password }),
    });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const failures = async (account: string) =>
    (
      await rt.deps.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM auth_failures WHERE account = $1',
        [account],
      )
    ).rows[0]!.n;

  it('a burst of 250 wrong passwords checks only the allowed few; the rest get 429 with Retry-After in the spec shape', async () => {
    const account = 'asesor@vitrina.demo';
    const burst = await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        login(proxied, account, `Wrong-${i}`, from('203.0.113.10')),
      ),
    );
    const checked = burst.filter((r) => r.status === 401);
    const limited = burst.filter((r) => r.status === 429);
    expect(checked).toHaveLength(SIGN_IN_THROTTLE.pair.free);
    expect(limited).toHaveLength(250 - SIGN_IN_THROTTLE.pair.free);
    expect(await failures(account)).toBe(SIGN_IN_THROTTLE.pair.free);
    const res = limited[0]!;
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as ApiErrorBody;
    expect(body).toEqual([
      {
        errorCode: 'RATE_LIMITED',
        message: 'Demasiados intentos. Intenta de nuevo en 1 segundo',
        retryAfter: 1,
      },
    ]);
    expect(res.headers.get('set-cookie')).toBeNull();

    // The guesser's address waits even with the right password (the pair is throttled strictly)…
    expect((await login(proxied, account, DEMO_PASSWORD, from('203.0.113.10'))).status).toBe(429);
    // …while the owner, from another address, signs in at once.
    const owner = await login(proxied, account, DEMO_PASSWORD, from('198.51.100.20'));
    expect(owner.status).toBe(200);
    expect(owner.headers.get('set-cookie')).toMatch(/vitrina_session=/);
  });

  it('a failure "in the future" (the clock jumped back, or an attempt read the clock before waiting for the locks) asks no wait below the allowance', async () => {
    later(3600);
    const account = 'gerente@vitrina.demo';
    expect((await login(proxied, account, 'Wrong-1', from('192.0.2.77'))).status).toBe(401);
    later(-10);
    const res = await login(proxied, account, DEMO_PASSWORD, from('192.0.2.77'));
    expect(res.status, await res.clone().text()).toBe(200);
    later(10);
  });

  it('the delay grows with each further failure (1 s, 2 s, 4 s…) and is a delay, not a lockout', async () => {
    const account = 'asesor2@vitrina.demo';
    const guesser = from('203.0.113.11');
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.free; i++) {
      expect((await login(proxied, account, `Wrong-${i}`, guesser)).status).toBe(401);
    }
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await login(proxied, account, 'Wrong-again', guesser);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get('retry-after'));
      waits.push(wait);
      later(wait);
      expect((await login(proxied, account, 'Wrong-again', guesser)).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    // After the wait, the right password from the same address signs in and clears its failures.
    const refused = await login(proxied, account, DEMO_PASSWORD, guesser);
    expect(refused.status).toBe(429);
    later(Number(refused.headers.get('retry-after')));
    expect((await login(proxied, account, DEMO_PASSWORD, guesser)).status).toBe(200);
    expect(await failures(account)).toBe(0);
    expect((await login(proxied, account, 'Wrong-once-more', guesser)).status).toBe(401);
  });

  it('many addresses guessing one account only slow it down by seconds: the owner still signs in', async () => {
    const account = 'gerente@vitrina.demo';
    // Failures from 40 addresses, as a distributed guess would leave them (fast: no hashing).
    for (let i = 0; i < 40; i++) {
      await rt.deps.db.query(
        'INSERT INTO auth_failures (account, address, at) VALUES ($1, $2, $3)',
        [account, `192.0.2.${i}`, new Date(now.getTime() - 1000).toISOString()],
      );
    }
    const owner = from('198.51.100.21');
    const slowed = await login(proxied, account, DEMO_PASSWORD, owner);
    expect(slowed.status).toBe(429);
    const wait = Number(slowed.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(SIGN_IN_THROTTLE.account.maxDelaySeconds);
    later(wait);
    expect((await login(proxied, account, DEMO_PASSWORD, owner)).status).toBe(200);
  });

  it('one address trying many accounts is slowed after the per-address allowance', async () => {
    const sprayer = '203.0.113.12';
    for (let i = 0; i < SIGN_IN_THROTTLE.address.free; i++) {
      await rt.deps.db.query(
        'INSERT INTO auth_failures (account, address, at) VALUES ($1, $2, $3)',
        [`nobody${i}@example.com`, sprayer, now.toISOString()],
      );
    }
    const res = await login(proxied, 'broker@vitrina.demo', 'Wrong-1', from(sprayer));
    expect(res.status).toBe(429);
    expect(((await res.json()) as ApiErrorBody)[0]!.errorCode).toBe('RATE_LIMITED');
    // Others are not affected.
    expect(
      (await login(proxied, 'broker@vitrina.demo', DEMO_PASSWORD, from('203.0.113.13'))).status,
    ).toBe(200);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: changing it does not escape the throttle', async () => {
    const account = 'hostess@vitrina.demo';
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.free + 3; i++) {
      const res = await login(direct, account, `Wrong-${i}`, from(`198.18.0.${i}`));
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_THROTTLE.pair.free);
    expect(statuses.slice(SIGN_IN_THROTTLE.pair.free)).toEqual([429, 429, 429]);
    const { rows } = await rt.deps.db.query<{ address: string }>(
      'SELECT DISTINCT address FROM auth_failures WHERE account = $1',
      [account],
    );
    expect(rows.map((r) => r.address)).not.toContain('198.18.0.0');
  });

  it('with TRUST_PROXY, the address is the one the proxy appended, not what the client forged before it', async () => {
    const account = 'asesor.pacifico@vitrina.demo';
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.free; i++) {
      const forged = { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.14` };
      expect((await login(proxied, account, `Wrong-${i}`, forged)).status).toBe(401);
    }
    const again = { 'x-forwarded-for': '10.9.9.99, 203.0.113.14' };
    expect((await login(proxied, account, 'Wrong-x', again)).status).toBe(429);
    const { rows } = await rt.deps.db.query<{ address: string }>(
      'SELECT DISTINCT address FROM auth_failures WHERE account = $1',
      [account],
    );
    expect(rows.map((r) => r.address)).toEqual(['203.0.113.14']);
  });
});
