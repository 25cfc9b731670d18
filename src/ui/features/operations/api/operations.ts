/**
 * The operations page's data (`GET /api/operaciones`, platform administrators only) and its
 * retries. The overview refreshes every 10 s while the page is open; a retry refetches it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiQuery } from '../../../lib/api';

export type ConsumerState = 'active' | 'idle' | 'retrying' | 'standby' | 'error' | 'stopped';
export type TimerState = 'scheduled' | 'firing' | 'done' | 'failed' | 'parked';
export type MessageState = 'pending' | 'sending' | 'sent' | 'failed' | 'dead';
export type ParkedState = 'parked' | 'retry' | 'resolved';

export interface ConsumerRow {
  name: string;
  /** As the answering process sees it; 'standby' when another process holds the consumer. */
  state: ConsumerState;
  holder: string | null;
  leaseExpiresAt: string | null;
  checkpoint: { transactionId: string; position: string };
  lag: number;
  lagCapped: boolean;
  failing: {
    eventId: string;
    attempts: number;
    lastError: string | null;
    retryAt: string | null;
  } | null;
  parked: number;
  lastError: string | null;
}

export interface TimerRow {
  key: string;
  kind: string;
  state: TimerState;
  dueAt: string;
  nextAttemptAt: string | null;
  attempts: number;
  lastError: string | null;
}

export interface MessageRow {
  id: string;
  kind: string;
  state: MessageState;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
}

export interface ParkedRow {
  consumer: string;
  eventId: string;
  eventType: string;
  error: string;
  attempts: number;
  state: ParkedState;
  parkedAt: string;
  resolvedAt: string | null;
}

export interface OperationsOverview {
  generatedAt: string;
  instanceId: string;
  running: boolean;
  consumers: ConsumerRow[];
  timers: {
    counts: { scheduled: number; due: number; failed: number; parked: number };
    kinds: string[];
    lastError: string | null;
    attention: TimerRow[];
    upcoming: TimerRow[];
  };
  outbox: {
    counts: { pending: number; due: number; sending: number; failed: number; dead: number };
    kinds: string[];
    lastError: string | null;
    attention: MessageRow[];
    pending: MessageRow[];
  };
  parked: ParkedRow[];
  limit: number;
}

export const OPERATIONS_REFRESH_MS = 10_000;

export function useOperations(enabled: boolean) {
  return useQuery({
    ...apiQuery<OperationsOverview>('/api/operaciones'),
    enabled,
    refetchInterval: OPERATIONS_REFRESH_MS,
  });
}

/** What a retry names: a timer by key, an outbound message by id, a consumer's parked event. */
export type RetryTarget =
  | { type: 'timer'; key: string; kind: string }
  | { type: 'message'; id: string; kind: string }
  | { type: 'event'; consumer: string; eventId: string; eventType: string };

export function retryPath(target: RetryTarget): string {
  const e = encodeURIComponent;
  switch (target.type) {
    case 'timer':
      return `/api/operaciones/timers/${e(target.key)}/reintentar`;
    case 'message':
      return `/api/operaciones/mensajes/${e(target.id)}/reintentar`;
    case 'event':
      return `/api/operaciones/consumidores/${e(target.consumer)}/eventos/${e(target.eventId)}/reintentar`;
    default: {
      const unhandled: never = target;
      throw new Error(`unknown retry target ${(unhandled as { type: string }).type}`);
    }
  }
}

/** Retries one row; the overview is read again whether it worked or not. */
export function useRetry() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (target: RetryTarget) => api<unknown>(retryPath(target), { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: ['api', '/api/operaciones'] }),
  });
}
