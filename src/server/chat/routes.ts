/**
 * The chat assistant (issue 18; spec §2 Chat, §7 Chat, §8 chat failure): parse with zod,
 * authorise (the session's membership; core/permissions.ts `mayConfigureChat` for settings),
 * answer. Every refusal is `[{ errorCode, message }]` in the caller's language.
 *
 * - `POST /api/chat` `{ corporativo, mensaje, sessionID, divisa?, unidadArea? }`: a member's
 *   message. 403 CHAT_DISABLED unless the deployment and the corporate both turned the chat on.
 *   A corporate that chose the webhook is answered through it (webhook.ts: the browser never
 *   sees its URL or key; the session id it gets is bound to the user); on a timeout, an HTTP
 *   error, a body too large, invalid JSON or no `output`, the failure is logged and the answer
 *   is 502 CHAT_FAILED 'Error al conectar con el bot'; a third call of one user while two
 *   wait is 429. Otherwise the built-in inventory
 *   assistant answers (assistant.ts). A message over 500 characters is a 400.
 * - `GET` / `PUT /api/corporativos/:id/config-chat`: the corporate's switch, welcome message
 *   (es, en) and who answers; the corporate's administrator only (403).
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { CHAT_MESSAGE_MAX } from '../../core/chat-query';
import { mayConfigureChat } from '../../core/permissions';
import type { CorporateDoc } from '../catalogue/queries';
import { requireMember, type Ctx, type Env, type Membership } from '../http/context';
import { ApiError, forbidden, jsonBody, parse } from '../http/errors';
import { rateLimited } from '../http/rate-limit';
import { answerFromInventory } from './assistant';
import { chatSettingsOf, configureChat } from './commands';
import { callWebhook, chatOptionsFromEnv, WebhookFailure, type ChatOptions } from './webhook';

const id = z.string().min(1).max(64);

/** Longest welcome message per language. */
export const WELCOME_MAX = 300;

const messageBody = z.strictObject({
  corporativo: id,
  mensaje: z
    .string()
    .max(CHAT_MESSAGE_MAX * 4)
    .transform((s) => s.trim())
    .pipe(z.string().min(1).max(CHAT_MESSAGE_MAX)),
  sessionID: z.string().regex(/^[\w-]{8,64}$/),
  divisa: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
  unidadArea: z.enum(['m2', 'ft2']).optional(),
});

const welcome = z
  .string()
  .max(WELCOME_MAX * 2)
  .transform((s) => s.trim())
  .pipe(z.string().max(WELCOME_MAX));

const settingsBody = z.strictObject({
  mostrarChat: z.boolean(),
  asistenteChat: z.enum(['inventario', 'webhook']),
  mensajeBienvenidaChat: z.strictObject({ es: welcome.optional(), en: welcome.optional() }),
});

const chatFailed = () => new ApiError(502, 'CHAT_FAILED', 'chat_failed');

/**
 * Webhook calls one user may have waiting at once in this process: the panel sends one at a
 * time, so more is a script hammering the corporate's webhook (429, retry after a second).
 */
export const WEBHOOK_CALLS_PER_USER = 2;
const pendingWebhookCalls = new Map<string, number>();

function chatOptions(c: Ctx): ChatOptions {
  return c.get('deps').chat ?? chatOptionsFromEnv();
}

async function requireChatAdmin(c: Ctx): Promise<Membership> {
  const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
  if (!mayConfigureChat(m.role)) throw forbidden();
  return m;
}

/**
 * The session id the webhook sees: the browser's, bound to the user and the corporate, so one
 * user cannot continue another's conversation by sending its id.
 */
function webhookSessionId(userId: string, corporateId: string, sessionID: string): string {
  return createHash('sha256')
    .update(`${userId}\u0000${corporateId}\u0000${sessionID}`)
    .digest('hex')
    .slice(0, 32);
}

export const chatRoutes = new Hono<Env>()
  .post('/chat', async (c) => {
    const body = parse(messageBody, await jsonBody(c));
    const m = await requireMember(c, { id: body.corporativo });
    const options = chatOptions(c);
    if (!options.enabled || m.corporate.mostrarChat !== true) {
      throw new ApiError(403, 'CHAT_DISABLED', 'chat_disabled');
    }
    if (chatSettingsOf(m.corporate).asistenteChat === 'webhook') {
      const pending = pendingWebhookCalls.get(m.user.id) ?? 0;
      if (pending >= WEBHOOK_CALLS_PER_USER) throw rateLimited(c, 1);
      pendingWebhookCalls.set(m.user.id, pending + 1);
      try {
        const html = await callWebhook(options, {
          mensaje: body.mensaje,
          sessionID: webhookSessionId(m.user.id, m.corporate.id, body.sessionID),
          corporativo: m.corporate.id,
        });
        return c.json({ tipo: 'html', html });
      } catch (error) {
        // Spec §8: the failure is logged (the reason only: never the URL, the key or the body).
        console.error(
          `[vitrina] chat: ${error instanceof WebhookFailure ? error.message : 'webhook error'} (corporate ${m.corporate.id})`,
        );
        throw chatFailed();
      } finally {
        const left = (pendingWebhookCalls.get(m.user.id) ?? 1) - 1;
        if (left > 0) pendingWebhookCalls.set(m.user.id, left);
        else pendingWebhookCalls.delete(m.user.id);
      }
    }
    const reply = await answerFromInventory(
      c.get('deps').db,
      m.corporate as CorporateDoc,
      m.role,
      body,
    );
    return c.json(reply);
  })
  .get('/corporativos/:id/config-chat', async (c) => {
    const m = await requireChatAdmin(c);
    return c.json({
      ...chatSettingsOf(m.corporate),
      webhookConfigurado: Boolean(chatOptions(c).webhookUrl),
    });
  })
  .put('/corporativos/:id/config-chat', async (c) => {
    const m = await requireChatAdmin(c);
    const body = parse(settingsBody, await jsonBody(c));
    const mensajeBienvenidaChat: { es?: string; en?: string } = {};
    if (body.mensajeBienvenidaChat.es) mensajeBienvenidaChat.es = body.mensajeBienvenidaChat.es;
    if (body.mensajeBienvenidaChat.en) mensajeBienvenidaChat.en = body.mensajeBienvenidaChat.en;
    const settings = await configureChat(c.get('deps'), m, { ...body, mensajeBienvenidaChat });
    return c.json({ ...settings, webhookConfigurado: Boolean(chatOptions(c).webhookUrl) });
  });
