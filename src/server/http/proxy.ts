/**
 * Who the client is and how it reached us, when a reverse proxy (TLS terminator, load balancer)
 * may stand in front of the server.
 *
 * `TRUST_PROXY` says how many proxies stand in front (`true` or `1`: one; `2`: two…; unset, `0`
 * or `false`: none). Only then are `X-Forwarded-For` and `X-Forwarded-Proto` believed, and only
 * the entries our own proxies wrote: each proxy appends the address it was reached from, so the
 * client is the entry `hops` places from the right; anything to its left was sent by the client
 * and may be forged. Without `TRUST_PROXY` the headers are ignored (anyone could send them) and
 * the address is the socket's.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppDeps, Env } from './context';

/** `TRUST_PROXY` read as a number of proxies (0: trust no forwarded header). */
export function trustProxyHops(value: string | undefined): number {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'false' || v === 'no' || v === 'off') return 0;
  if (v === 'true' || v === 'yes' || v === 'on') return 1;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`TRUST_PROXY must be true, false or a number of proxies, not '${value}'`);
  }
  return n;
}

/** The deployment's `trustProxy` (0 where the request carries no dependencies). */
function hopsOf(c: Context): number {
  const deps = (c as Context<Env>).get('deps') as AppDeps | undefined;
  return deps?.trustProxy ?? 0;
}

/** The entry our own proxies wrote in a comma-separated forwarded header, or null. */
function forwarded(c: Context, header: string, hops: number): string | null {
  const raw = c.req.header(header);
  if (!raw) return null;
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (entries.length === 0) return null;
  return entries[Math.max(0, entries.length - hops)]!;
}

function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The client's address: from `X-Forwarded-For` behind trusted proxies (`TRUST_PROXY`), else the
 * socket's ('unknown' where the runtime cannot tell).
 */
export function clientAddress(c: Context): string {
  const hops = hopsOf(c);
  if (hops > 0) {
    const address = forwarded(c, 'x-forwarded-for', hops);
    if (address) return address.slice(0, 100);
  }
  return socketAddress(c);
}

/**
 * Whether the client reached us over HTTPS: the request's own scheme, or behind trusted proxies
 * (`TRUST_PROXY`) the `X-Forwarded-Proto` they set.
 */
export function isHttps(c: Context): boolean {
  // The absolute URL the server built: its scheme is its first characters (no URL parse).
  if (/^https:/i.test(c.req.url)) return true;
  const hops = hopsOf(c);
  if (hops === 0) return false;
  return forwarded(c, 'x-forwarded-proto', hops)?.toLowerCase() === 'https';
}
