/**
 * Serves one CRM fake until killed, for Playwright or a shell:
 *   node --import tsx tests/support/crm-fakes/serve.ts hubspot 4599
 * Prints `crm-fake <kind> <url>` once listening. Switches over HTTP (tests drive them):
 *   POST /__fake__/switches {expire?: true, revokeRefresh?: boolean, rateLimit?: n,
 *     stallNextWriteMs?: ms, error?: {status, body}}  ·  GET /__fake__/records
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { startCrmFake, type CrmKind } from './index';

const kind = (process.argv[2] ?? 'hubspot') as CrmKind;
if (!['salesforce', 'hubspot', 'zoho'].includes(kind)) {
  console.error('usage: serve.ts salesforce|hubspot|zoho [port] [controlPort]');
  process.exit(2);
}
const port = Number(process.argv[3] ?? 0);
const fake = await startCrmFake(kind, port);

// The control API on its own port (argv[4], default port + 1): the fake's own paths stay the vendor's.
const control = new Hono()
  .post('/__fake__/switches', async (c) => {
    const body = await c.req.json<{
      expire?: boolean;
      revokeRefresh?: boolean;
      rateLimit?: number;
      stallNextWriteMs?: number;
      error?: { status: number; body: unknown };
    }>();
    if (body.expire) fake.switches.expireTokens();
    if (body.revokeRefresh !== undefined) fake.switches.revokeRefresh = body.revokeRefresh;
    if (body.rateLimit !== undefined) fake.switches.rateLimit = body.rateLimit;
    if (body.stallNextWriteMs !== undefined) fake.switches.stallNextWriteMs = body.stallNextWriteMs;
    if (body.error) fake.switches.nextErrors.push(body.error);
    return c.json({ ok: true });
  })
  .get('/__fake__/records', (c) => c.json([...fake.records.values()]))
  .get('/__fake__/config', (c) => c.json(fake.config()));
const controlPort = Number(process.argv[4] ?? (port ? port + 1 : 0));
serve({ fetch: control.fetch, port: controlPort, hostname: '127.0.0.1' }, (info) => {
  console.log(`crm-fake ${kind} ${fake.url} control http://127.0.0.1:${info.port}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void fake.close().then(() => process.exit(0)));
