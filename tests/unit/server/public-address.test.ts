/**
 * The CRM calls' address rule (server-side request forgery): internal addresses are refused
 * when written as such, when a name resolves to them, and at connect time through crmFetch.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { crmFetch, CrmCallError, urlAllowed } from '../../../src/server/crm/providers';
import {
  addressAllowed,
  guardedLookup,
  InternalAddressError,
  literalHostAllowed,
} from '../../../src/server/crm/public-address';

describe('addressAllowed', () => {
  it('refuses private, link-local, loopback, reserved and mapped addresses; allows public ones', () => {
    for (const internal of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '127.0.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      'not an address',
    ])
      expect(addressAllowed(internal, false), internal).toBe(false);
    for (const pub of [
      '8.8.8.8',
      '172.32.0.1',
      '13.107.6.152',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect(addressAllowed(pub, false), pub).toBe(true);
  });

  it('allows loopback only when the deployment does (tests’ fake CRMs), never other internal ones', () => {
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('::1', true)).toBe(true);
    expect(addressAllowed('10.0.0.1', true)).toBe(false);
    expect(addressAllowed('169.254.169.254', true)).toBe(false);
  });
});

describe('literalHostAllowed and urlAllowed', () => {
  it('judges address literals in every form the URL parser accepts, and localhost names', () => {
    const no = { allowHttpLoopback: false };
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://0xa9fea9fe/',
      'https://2852039166/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fe80::1]/',
      'https://localhost/',
      'https://LOCALHOST./',
      'https://crm.localhost/',
      'https://127.1/',
    ])
      expect(urlAllowed(url, no), url).toBe(false);
    expect(urlAllowed('https://login.salesforce.com/services/oauth2/token', no)).toBe(true);
    expect(urlAllowed('https://8.8.8.8/', no)).toBe(true);
    expect(literalHostAllowed('api.hubapi.com', false)).toBe(true);
    expect(urlAllowed('http://127.0.0.1:9/x', { allowHttpLoopback: true })).toBe(true);
    expect(urlAllowed('https://10.0.0.1/x', { allowHttpLoopback: true })).toBe(false);
  });
});

describe('guardedLookup', () => {
  const resolve = (name: string, allowLoopback: boolean, all: boolean) =>
    new Promise<{ error: Error | null; address: unknown }>((done) =>
      guardedLookup(allowLoopback)(name, { all }, (error, address) => done({ error, address })),
    );

  it('fails a name that resolves to loopback unless allowed, in both callback forms', async () => {
    for (const all of [false, true]) {
      const refused = await resolve('localhost', false, all);
      expect(refused.error).toBeInstanceOf(InternalAddressError);
      const allowed = await resolve('localhost', true, all);
      expect(allowed.error).toBeNull();
      if (all) expect(Array.isArray(allowed.address)).toBe(true);
      else expect(typeof allowed.address).toBe('string');
    }
  });

  it('passes a resolution failure through as it is', async () => {
    const { error } = await resolve('no-such-host.invalid', false, false);
    expect(error).not.toBeNull();
    expect(error).not.toBeInstanceOf(InternalAddressError);
  });
});

describe('crmFetch', () => {
  it('refuses, as permanent, a name that resolves to an internal address at connect time', async () => {
    // This machine's own name resolves to itself: loopback or its private network address.
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0 || addresses.every((a) => addressAllowed(a.address, false))) {
      console.warn(`skipped: ${name} does not resolve to an internal address here`);
      return;
    }
    expect(literalHostAllowed(name, false)).toBe(true);
    const call = crmFetch({ allowHttpLoopback: false, timeoutMs: 5000 }, `https://${name}:2/x`);
    await expect(call).rejects.toBeInstanceOf(CrmCallError);
    await expect(call).rejects.toMatchObject({
      failure: 'permanent',
      crmError: expect.stringMatching(/^URL_NOT_ALLOWED/),
    });
  });
});
