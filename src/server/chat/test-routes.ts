/**
 * The end-to-end tests' handle on the chat webhook (tests/e2e/chat.spec.ts), mounted only with
 * the test clock (`VITRINA_TEST_CLOCK=1`, which only scripts/e2e-server.mjs sets):
 * `POST /__test__/chat-webhook` `{ url }` points the deployment's webhook at the test's fake on
 * loopback (`null`: none), so one spec drives a malicious or slow webhook without a server
 * restart. Real deployments configure it with `VITRINA_CHAT_URL`.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../http/context';
import { chatOptionsFromEnv } from './webhook';

const body = z.strictObject({
  url: z
    .string()
    .regex(/^http:\/\/127\.0\.0\.1:\d{2,5}\/[\w/-]*$/)
    .nullable(),
});

export function testChatRoutes(deps: Pick<AppDeps, 'chat'>) {
  return new Hono().post('/__test__/chat-webhook', async (c) => {
    const parsed = body.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json([{ errorCode: 'VALIDATION', message: 'url' }], 400);
    const { webhookUrl: _previous, ...rest } = deps.chat ?? chatOptionsFromEnv();
    deps.chat = parsed.data.url ? { ...rest, webhookUrl: parsed.data.url } : rest;
    return c.json({ webhook: parsed.data.url !== null });
  });
}
