/**
 * Behind a TLS proxy (issue 13, defect 6): with TRUST_PROXY and `X-Forwarded-Proto: https` the
 * session cookie is Secure and every response carries HSTS; without TRUST_PROXY the header is
 * anyone's to send and changes nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { trustProxyHops } from '../../src/server/http/proxy';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { describeBackends, openSeeded, type Backend } from './support/backends';

describeBackends('hardening: behind a TLS proxy', (backend) => {
  let rt: Awaited<ReturnType<Backend['open']>>;
  let proxied: ReturnType<typeof createApp>;
  let direct: ReturnType<typeof createApp>;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    proxied = createApp({ ...rt.deps, trustProxy: 1 });
    direct = createApp({ ...rt.deps, trustProxy: 0 });
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const login = async (
    app: ReturnType<typeof createApp>,
    headers: Record<string, string>,
  ): Promise<Response> =>
    app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: 'gerente@vitrina.demo', password: DEMO_PASSWORD }),
    });
  const tls = { 'x-forwarded-proto': 'https' };
  const hsts = /max-age=\d{7,}/;

  it('with TRUST_PROXY and X-Forwarded-Proto https: a Secure session cookie and HSTS', async () => {
    const res = await login(proxied, tls);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*HttpOnly/i);
    expect(res.headers.get('strict-transport-security')).toMatch(hsts);
    // Every response, errors and pages outside the API included.
    for (const path of ['/api/auth/session', '/api/no-such-route', '/corporativos']) {
      const other = await proxied.request(path, { headers: tls });
      expect(other.headers.get('strict-transport-security'), path).toMatch(hsts);
    }
  });

  it('with TRUST_PROXY over plain HTTP (no header, or http): no Secure, no HSTS', async () => {
    const plain: Record<string, string>[] = [{}, { 'x-forwarded-proto': 'http' }];
    for (const headers of plain) {
      const res = await login(proxied, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('without TRUST_PROXY, X-Forwarded-Proto is ignored', async () => {
    const res = await login(direct, tls);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('TRUST_PROXY is read as a number of proxies; anything else refuses to start', () => {
    expect([undefined, '', '0', 'false', 'no'].map(trustProxyHops)).toEqual([0, 0, 0, 0, 0]);
    expect(['1', 'true', 'yes', '2'].map(trustProxyHops)).toEqual([1, 1, 1, 2]);
    expect(() => trustProxyHops('loopback')).toThrow(/TRUST_PROXY/);
  });
});
