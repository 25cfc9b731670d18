/**
 * CRM fakes for tests (issue 17): one small Hono app per CRM on loopback, answering the vendors'
 * shapes (docs/crm.md "Vendor shapes"). No test reaches a real CRM.
 *
 *   const fake = await startCrmFake('hubspot');          // { url, close, switches, records, … }
 *   await admin.put(`/api/corporativos/${id}/crm/config`, fake.config());
 *   fake.switches.expireTokens(); fake.switches.nextErrors.push({ status: 500, body: {...} });
 *   fake.switches.rateLimit = 3; fake.switches.stallNextWriteMs = 2_000;
 *
 * From Playwright or a shell: `node --import tsx tests/support/crm-fakes/serve.ts hubspot 4599`.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { FAKE_CLIENT, type CrmKind, type FakeCall, type FakeRecord, type Switches } from './common';
import { hubspotFake } from './hubspot';
import { salesforceFake } from './salesforce';
import { zohoFake } from './zoho';

export { FAKE_CLIENT, type CrmKind, type FakeRecord, type Switches } from './common';

export interface CrmFake {
  kind: CrmKind;
  url: string;
  close(): Promise<void>;
  switches: Switches;
  /** The CRM's lead / contact records by CRM id. */
  records: Map<string, FakeRecord>;
  /** Every request: method, path, status. */
  calls: FakeCall[];
  /** Token endpoint calls (grant type and form: the client secret is in it, the fake's own). */
  tokenCalls: { grant: string; form: Record<string, string> }[];
  /** The body of `PUT /api/corporativos/:id/crm/config` that points a corporate at this fake. */
  config(extra?: Record<string, unknown>): Record<string, unknown>;
  /**
   * Presses "Autorizar" on the authorize page of `authorizeUrl` (what our server gave the
   * browser) and answers the redirect's query: `code`, `state` (and Zoho's `accounts-server`).
   */
  approve(authorizeUrl: string): Promise<Record<string, string>>;
}

function configFor(kind: CrmKind, url: string): Record<string, unknown> {
  const base = {
    clientId: FAKE_CLIENT.clientId,
    clientSecret: FAKE_CLIENT.clientSecret,
    queryLead: '',
    queryLeadSecondary: '',
    mapaLeads: {},
    exportacion: { url: null },
  };
  switch (kind) {
    case 'salesforce':
      return {
        ...base,
        tipo: 'Salesforce',
        authorizeUri: `${url}/services/oauth2/authorize`,
        tokenUri: `${url}/services/oauth2/token`,
        scope: 'api refresh_token',
        insertLead: '/sobjects/Lead',
        infoSeller: '/services/oauth2/userinfo',
        apiBase: '',
      };
    case 'hubspot':
      return {
        ...base,
        tipo: 'Hubspot',
        authorizeUri: `${url}/oauth/authorize`,
        tokenUri: `${url}/oauth/v1/token`,
        scope: 'crm.objects.contacts.read crm.objects.contacts.write',
        insertLead: '',
        infoSeller: '',
        apiBase: url,
      };
    case 'zoho':
      return {
        ...base,
        tipo: 'Zoho',
        authorizeUri: `${url}/oauth/v2/auth`,
        tokenUri: `${url}/oauth/v2/token`,
        scope: 'ZohoCRM.modules.ALL,ZohoCRM.users.READ',
        insertLead: '',
        infoSeller: '/crm/v8/users?type=CurrentUser',
        apiBase: '',
      };
  }
}

export async function startCrmFake(kind: CrmKind, port = 0): Promise<CrmFake> {
  let url = '';
  const baseUrl = () => url;
  const fake =
    kind === 'salesforce'
      ? salesforceFake(baseUrl, FAKE_CLIENT)
      : kind === 'hubspot'
        ? hubspotFake(baseUrl, FAKE_CLIENT)
        : zohoFake(baseUrl, FAKE_CLIENT);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: fake.app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    kind,
    url,
    switches: fake.switches,
    records: fake.records,
    calls: fake.calls,
    tokenCalls: fake.oauth.tokenCalls,
    config: (extra = {}) => ({ ...configFor(kind, url), ...extra }),
    approve: async (authorizeUrl) => {
      const u = new URL(authorizeUrl);
      const res = await fetch(`${url}${u.pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: u.searchParams.toString(),
        redirect: 'manual',
      });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`authorize refused: ${res.status}`);
      return Object.fromEntries(new URL(location).searchParams);
    },
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
