/**
 * The one command handler: every write of every area goes through {@link runCommand}.
 *
 * One attempt is one transaction. Inside it the command locks the streams it will write (in one
 * sorted order, so two commands cannot deadlock), loads them, folds them with the core's
 * `evolve`, runs the core's pure `decide`, and appends the events with the version it read. The
 * envelopes (id, actor, corporate, time) are built here and nowhere else.
 *
 * Because the streams are locked before they are read, writers of one stream queue instead of
 * failing on each other: 100 simultaneous notes on one lead are 100 notes. A command that depends
 * on what the user saw carries it (`leadAnterior`, the unit status on screen), and the decider,
 * deciding on the current state, answers it with a stale error (409 with the current state).
 * What can still fail is the rare case the locks do not cover (a stream appended without being
 * loaded, a serialization failure or deadlock reported by PostgreSQL): the whole attempt is run
 * again from the start, a bounded number of times with jittered backoff.
 */
import { randomUUID } from 'node:crypto';
import { fold, type Decider, type DomainEvent } from '../../core/decider';
import {
  ConcurrencyError,
  type AppendResult,
  type ExpectedVersion,
  type NewEvent,
  type StoreTransaction,
  type StoredEvent,
} from './event-store';
import type { EventStore } from './event-store';
import { ConnectionLostError, type Queryable } from './db';

/** What the handler needs from the process: the store, the clock and the id source. */
export interface CommandEnv {
  store: EventStore;
  clock: () => Date;
  newId: () => string;
}

/** Who issues the command, stamped on every event it produces. */
export interface CommandActor {
  actorId: string | null;
  corporateId: string | null;
}

/** A stream as the handler loaded it: the folded state and the version it was read at. */
export interface Loaded<S> {
  streamId: string;
  state: S;
  version: number;
  events: StoredEvent[];
}

/** How many times an attempt runs before its conflict reaches the caller (409). */
export const COMMAND_ATTEMPTS = 8;

/** The stamps of one attempt, so every event of a command carries the same time. */
export class CommandScope implements Queryable {
  private readonly versions = new Map<string, number>();
  private readonly pending: { streamId: string; expected: ExpectedVersion; events: NewEvent[] }[] =
    [];
  /** The command's time: every event of the command carries it. */
  readonly now: Date;

  constructor(
    private readonly tx: StoreTransaction,
    private readonly env: CommandEnv,
    private readonly actor: CommandActor,
  ) {
    this.now = env.clock();
  }

  /** Reads the read models inside the command's transaction (and under its locks). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]) {
    return this.tx.query<T>(sql, params);
  }

  newId(): string {
    return this.env.newId();
  }

  /** Locks streams (all at once, in one order) and answers their versions. */
  async lock(streamIds: readonly string[]): Promise<void> {
    const missing = streamIds.filter((id) => !this.versions.has(id));
    if (missing.length === 0) return;
    const versions = await this.tx.lockStreams(missing);
    for (const id of missing) this.versions.set(id, versions.get(id) ?? 0);
  }

  /** The locked version of a stream (locking it if needed). */
  async version(streamId: string): Promise<number> {
    await this.lock([streamId]);
    return this.versions.get(streamId) ?? 0;
  }

  /** Locks the stream, reads it and folds it with the decider's `evolve`. */
  async load<S, E extends DomainEvent>(
    decider: Pick<Decider<unknown, S, E, unknown>, 'initialState' | 'evolve'>,
    streamId: string,
  ): Promise<Loaded<S>> {
    await this.lock([streamId]);
    const events = await this.tx.readStream(streamId);
    let state = decider.initialState;
    for (const event of events)
      state = decider.evolve(state, { type: event.type, data: event.data } as E);
    return { streamId, state, version: events.length, events };
  }

  /**
   * Runs the decider's `decide` for each command in turn on the evolving state; a rejection is
   * thrown as `reject(error)` and nothing of the command is written.
   */
  decide<C, S, E extends DomainEvent, Err>(
    decider: Decider<C, S, E, Err>,
    state: S,
    commands: C | readonly C[],
    reject: (error: Err) => Error,
  ): E[] {
    const list = Array.isArray(commands) ? (commands as readonly C[]) : [commands as C];
    const out: E[] = [];
    let current = state;
    for (const command of list) {
      const decision = decider.decide(command, current);
      if (!decision.ok) throw reject(decision.error);
      out.push(...decision.events);
      current = decision.events.reduce((s, e) => decider.evolve(s, e), current);
    }
    return out;
  }

  /**
   * Queues events for a stream, expecting the version the command locked (or `expected`, e.g. 0
   * for a stream that must not exist yet). Written when the command's work returns.
   */
  async emit(streamId: string, events: readonly DomainEvent[], expected?: number): Promise<void> {
    if (events.length === 0) return;
    const locked = await this.version(streamId);
    const stamped = events.map((e) => ({
      id: this.env.newId(),
      type: e.type,
      data: e.data,
      corporateId: this.actor.corporateId,
      actorId: this.actor.actorId,
      occurredAt: this.now,
    }));
    const already = this.pending.find((p) => p.streamId === streamId);
    if (already) {
      already.events.push(...stamped);
      return;
    }
    this.pending.push({ streamId, expected: expected ?? locked, events: stamped });
  }

  /** Writes what the command emitted: every stream's events in one append. */
  async flush(): Promise<AppendResult[]> {
    const pending = this.pending.splice(0);
    if (pending.length === 0) return [];
    return this.tx.appendAll(
      pending.map((p) => ({ streamId: p.streamId, expectedVersion: p.expected, events: p.events })),
    );
  }
}

/**
 * PostgreSQL's serialization failure and deadlock, and a connection lost before COMMIT (the
 * transaction was rolled back): the attempt may simply run again.
 */
function isRetryable(error: unknown): boolean {
  if (error instanceof ConcurrencyError) return true;
  if (error instanceof ConnectionLostError) return error.beforeCommit;
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a command: `work` locks, loads, decides and emits through the scope; its result is
 * returned once everything emitted is committed. Retried from scratch on a conflict the locks
 * did not prevent (bounded, jittered); the last conflict reaches the caller.
 */
export async function runCommand<T>(
  env: CommandEnv,
  actor: CommandActor,
  work: (scope: CommandScope) => Promise<T>,
  attempts = COMMAND_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await env.store.transact(async (tx) => {
        const scope = new CommandScope(tx, env, actor);
        const result = await work(scope);
        await scope.flush();
        return result;
      });
    } catch (error) {
      if (!isRetryable(error) || attempt >= attempts) throw error;
      await sleep(Math.random() * 5 * 2 ** attempt);
    }
  }
}

/** One aggregate, one stream: load, decide, append. The common case of {@link runCommand}. */
export async function handleCommand<C, S, E extends DomainEvent, Err>(
  env: CommandEnv,
  actor: CommandActor,
  options: {
    decider: Decider<C, S, E, Err>;
    streamId: string;
    /** The command(s), given the loaded aggregate (e.g. to carry ids or check scope). */
    command: (
      loaded: Loaded<S>,
      scope: CommandScope,
    ) => C | readonly C[] | Promise<C | readonly C[]>;
    reject: (error: Err) => Error;
  },
): Promise<{ state: S; events: E[] }> {
  return runCommand(env, actor, async (scope) => {
    const loaded = await scope.load(options.decider, options.streamId);
    const commands = await options.command(loaded, scope);
    const events = scope.decide(options.decider, loaded.state, commands, options.reject);
    await scope.emit(options.streamId, events);
    return { state: events.reduce((s, e) => options.decider.evolve(s, e), loaded.state), events };
  });
}

/**
 * A decision nobody made by hand, inside a transaction the background work opened (a timer's or a
 * consumer's): under the stream's lock, as every command, it folds the stream, decides, and
 * appends what the decider answered with no actor (the history says 'Sistema'/'System'). Answers
 * the state it decided on and the events appended: none when the decider refused or had nothing
 * to do (the work was cancelled, moved or done by hand meanwhile).
 */
export async function decideAsSystem<C, S, E extends DomainEvent, Err>(
  tx: StoreTransaction,
  decider: Decider<C, S, E, Err>,
  target: { streamId: string; corporateId: string | null },
  command: C,
  now: Date,
): Promise<{ state: S; events: E[] }> {
  await tx.lockStreams([target.streamId]);
  const stored = await tx.readStream(target.streamId);
  const state = fold(
    decider,
    stored.map((e) => ({ type: e.type, data: e.data }) as E),
  );
  const decision = decider.decide(command, state);
  if (!decision.ok || decision.events.length === 0) return { state, events: [] };
  await tx.append({
    streamId: target.streamId,
    expectedVersion: stored.length,
    events: decision.events.map((e) => ({
      id: randomUUID(),
      type: e.type,
      data: e.data,
      corporateId: target.corporateId,
      actorId: null,
      occurredAt: now,
    })),
  });
  return { state, events: decision.events };
}
