/**
 * The shape every aggregate of the core follows: `decide(command, state)` answers with the
 * events a command produces or a typed domain error, `evolve(state, event)` folds one event into
 * the state, `initialState` is the state of a stream that does not exist yet. Pure: no I/O, no
 * clock, no randomness (times and ids come in the command).
 */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export type Decision<E, Err> = { ok: true; events: E[] } | { ok: false; error: Err };

export interface Decider<C, S, E extends DomainEvent, Err> {
  readonly initialState: S;
  decide(command: C, state: S): Decision<E, Err>;
  evolve(state: S, event: E): S;
}

export const accept = <E>(...events: E[]): { ok: true; events: E[] } => ({ ok: true, events });
export const reject = <Err>(error: Err): { ok: false; error: Err } => ({ ok: false, error });

/** Folds a stream's events into the aggregate's state. */
export function fold<S, E extends DomainEvent>(
  decider: Pick<Decider<unknown, S, E, unknown>, 'initialState' | 'evolve'>,
  events: Iterable<E>,
): S {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}

/** Runs several commands one after the other on the evolving state; all must succeed. */
export function decideAll<C, S, E extends DomainEvent, Err>(
  decider: Decider<C, S, E, Err>,
  commands: readonly C[],
  state: S,
): Decision<E, Err> {
  const out: E[] = [];
  let current = state;
  for (const command of commands) {
    const decision = decider.decide(command, current);
    if (!decision.ok) return decision;
    out.push(...decision.events);
    current = decision.events.reduce((s, e) => decider.evolve(s, e), current);
  }
  return { ok: true, events: out };
}
