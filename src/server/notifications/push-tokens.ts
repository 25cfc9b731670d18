/**
 * The user's push `tokens` (spec §3 User: push token to true; §7 "Update user for push":
 * `PUT /api/users/{id}` with `{ tokens: { pushToken: true } }`), over the browsers' subscriptions
 * of `push_subscriptions` (push.ts).
 *
 * With standard web push a browser's token is its subscription: the endpoint and the keys to
 * encrypt for it. A token in `tokens` is therefore either
 * - the subscription as the browser serialises it (`JSON.stringify(subscription)`: `{ endpoint,
 *   keys: { p256dh, auth }, expirationTime? }`): `true` registers it for the user, as
 *   `POST /api/push/suscripciones` does, `false` removes it; or
 * - a subscription's endpoint: `true` only confirms one the user already registered (a bare
 *   endpoint cannot be pushed to: 422 PUSH_SUBSCRIPTION_INVALID otherwise), `false` removes it.
 *
 * Everything is checked before anything is written: a token that is neither is 400, an endpoint
 * that is not https or not of a known push service 422 PUSH_ENDPOINT_NOT_ALLOWED.
 */
import { z } from 'zod';
import type { Db, Queryable } from '../store/db';
import { ApiError, badRequest } from '../http/errors';
import type { PushService } from './push';

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, { message: `${bytes} bytes` });

/** A browser's push subscription (PushSubscription.toJSON()). */
export const subscriptionBody = z.strictObject({
  endpoint: z.string().min(1).max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(65), auth: base64url(16) }),
});
export type Subscription = z.infer<typeof subscriptionBody>;

/** `tokens` of `PUT /api/users/{id}`: at most 10 tokens, each to true (add) or false (remove). */
export const pushTokensBody = z
  .record(z.string().min(1).max(4000), z.boolean())
  .refine((t) => Object.keys(t).length >= 1 && Object.keys(t).length <= 10, {
    message: '1 to 10 tokens',
  });

export const pushEndpointNotAllowed = () =>
  new ApiError(422, 'PUSH_ENDPOINT_NOT_ALLOWED', 'push_endpoint_not_allowed');

/** Registers the browser's subscription for the user (the same browser signed in as someone else moves to them). */
export async function registerSubscription(
  db: Queryable,
  userId: string,
  sub: Subscription,
): Promise<void> {
  await db.query(
    `INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth) VALUES ($1, $2, $3, $4)
     ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth`,
    [sub.endpoint, userId, sub.keys.p256dh, sub.keys.auth],
  );
}

/** The user's tokens as the spec shows them: each subscription's endpoint to true. */
export async function pushTokensOf(db: Queryable, userId: string): Promise<Record<string, true>> {
  const { rows } = await db.query<{ endpoint: string }>(
    'SELECT endpoint FROM push_subscriptions WHERE user_id = $1 ORDER BY endpoint',
    [userId],
  );
  return Object.fromEntries(rows.map((r) => [r.endpoint, true] as const));
}

export interface PushTokensPlan {
  register: Subscription[];
  remove: string[];
}

function asSubscription(token: string): Subscription | null {
  if (!token.trimStart().startsWith('{')) return null;
  try {
    const parsed = subscriptionBody.safeParse(JSON.parse(token));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const isUrl = (value: string) => {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
};

/** Checks every token (nothing is written): what to register and what to remove. */
export async function planPushTokens(
  db: Queryable,
  userId: string,
  tokens: Record<string, boolean>,
  push: PushService | undefined,
): Promise<PushTokensPlan> {
  const plan: PushTokensPlan = { register: [], remove: [] };
  const mine = await pushTokensOf(db, userId);
  const invalid: { path: string; code: string }[] = [];
  for (const [token, wanted] of Object.entries(tokens)) {
    const sub = asSubscription(token);
    const endpoint = sub?.endpoint ?? (isUrl(token) ? token : null);
    if (endpoint === null) {
      invalid.push({ path: 'tokens', code: 'invalid_token' });
      continue;
    }
    if (!wanted) {
      plan.remove.push(endpoint);
      continue;
    }
    if (!push?.allowed(endpoint)) throw pushEndpointNotAllowed();
    if (sub) plan.register.push(sub);
    else if (!mine[endpoint])
      throw new ApiError(422, 'PUSH_SUBSCRIPTION_INVALID', 'push_subscription_invalid');
  }
  if (invalid.length > 0) throw badRequest(invalid);
  return plan;
}

/** Writes a checked plan, all of it or nothing (one transaction). */
export async function applyPushTokens(db: Db, userId: string, plan: PushTokensPlan): Promise<void> {
  if (plan.register.length === 0 && plan.remove.length === 0) return;
  await db.transaction(async (tx) => {
    for (const sub of plan.register) await registerSubscription(tx, userId, sub);
    if (plan.remove.length > 0)
      await tx.query(
        'DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = ANY($2::text[])',
        [userId, plan.remove],
      );
  });
}
