/**
 * The corporate's chat webhook (issue 18 point 2, spec §7 Chat): our server posts the message
 * and the browser never sees the webhook's URL or key. The deployment configures it
 * (`VITRINA_CHAT_URL`, optional `VITRINA_CHAT_KEY` sent as a bearer token); a corporate that
 * chose it (`asistenteChat: 'webhook'`) is answered through it.
 *
 * Whatever the webhook does, the caller gets a defined answer: the reply's `output` (HTML, which
 * the browser sanitises right before inserting it), or a {@link WebhookFailure} naming why
 * (timeout, HTTP status, a body over {@link WEBHOOK_MAX_BYTES}, invalid JSON, no `output`),
 * which the route logs and answers with the spec's failure message.
 */
import { z } from 'zod';
import { CHAT_UNITS_PER_DEVELOPMENT } from '../../core/chat-query';

/** The deployment's chat settings (AppDeps.chat). */
export interface ChatOptions {
  /** The chat widget may show at all (`VITRINA_CHAT=off` turns it off for the deployment). */
  enabled: boolean;
  /** The webhook's URL; absent: every corporate gets the built-in inventory assistant. */
  webhookUrl?: string;
  /** Sent as `Authorization: Bearer …` when set. */
  webhookKey?: string;
  /** How long the webhook may take (default {@link WEBHOOK_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** The webhook's answer time limit; the browser's own limit (chat.machine.ts) is longer. */
export const WEBHOOK_TIMEOUT_MS = 15_000;

/** Largest webhook response read (bytes); a larger one is a failure, not read further. */
export const WEBHOOK_MAX_BYTES = 256 * 1024;

/** Longest `output` passed on (characters). */
export const WEBHOOK_OUTPUT_MAX = 64 * 1024;

/** The deployment's chat settings from the environment. */
export function chatOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ChatOptions {
  const timeout = Number(env.VITRINA_CHAT_TIMEOUT_MS);
  return {
    enabled: env.VITRINA_CHAT !== 'off',
    ...(env.VITRINA_CHAT_URL ? { webhookUrl: env.VITRINA_CHAT_URL } : {}),
    ...(env.VITRINA_CHAT_KEY ? { webhookKey: env.VITRINA_CHAT_KEY } : {}),
    ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
  };
}

/** The spec's body (§7 Chat). */
export interface WebhookRequest {
  mensaje: string;
  sessionID: string;
  corporativo: string;
}

export type WebhookFailureReason =
  'timeout' | 'unreachable' | 'status' | 'too_large' | 'invalid_json' | 'invalid_reply';

/** Why the webhook gave no usable reply (logged; never shown beyond the failure message). */
export class WebhookFailure extends Error {
  constructor(
    readonly reason: WebhookFailureReason,
    detail = '',
  ) {
    super(`chat webhook: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'WebhookFailure';
  }
}

const replySchema = z.object({ output: z.string().max(WEBHOOK_OUTPUT_MAX) });

/** Reads at most `max` bytes of the body; more is a failure (the rest is not downloaded). */
async function readCapped(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    throw new WebhookFailure('too_large', `${declared} bytes declared`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new WebhookFailure('too_large', `over ${max} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Posts the message to the webhook (`requestMode: 'Prod'`, `unidadesXDesarrollo: 3`) and
 * answers its `output`. Throws {@link WebhookFailure}.
 */
export async function callWebhook(options: ChatOptions, request: WebhookRequest): Promise<string> {
  if (!options.webhookUrl) throw new WebhookFailure('unreachable', 'no webhook configured');
  const timeout = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeout);
  try {
    const res = await fetch(options.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.webhookKey ? { authorization: `Bearer ${options.webhookKey}` } : {}),
      },
      body: JSON.stringify({
        mensaje: request.mensaje,
        sessionID: request.sessionID,
        corporativo: request.corporativo,
        requestMode: 'Prod',
        unidadesXDesarrollo: CHAT_UNITS_PER_DEVELOPMENT,
      }),
      redirect: 'error',
      signal,
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new WebhookFailure('status', String(res.status));
    }
    const text = await readCapped(res, WEBHOOK_MAX_BYTES);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new WebhookFailure('invalid_json');
    }
    const parsed = replySchema.safeParse(json);
    if (!parsed.success) throw new WebhookFailure('invalid_reply');
    return parsed.data.output;
  } catch (error) {
    if (error instanceof WebhookFailure) throw error;
    if (signal.aborted) throw new WebhookFailure('timeout', `${timeout} ms`);
    throw new WebhookFailure('unreachable', error instanceof Error ? error.message : '');
  }
}
