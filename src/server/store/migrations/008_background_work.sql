-- Background work on the event log (issue 12): consumers that follow the log, timers and an
-- outbox. These tables hold work state, not read models: a projection rebuild never empties them.

-- A consumer's place in the global log, moved in the same transaction as its effects. While a
-- handler keeps failing on one event, that event and its attempts are recorded here.
CREATE TABLE consumers (
  name             text PRIMARY KEY,
  transaction_id   xid8 NOT NULL DEFAULT '0',
  position         bigint NOT NULL DEFAULT 0,
  failing_event_id uuid,
  failing_attempts integer NOT NULL DEFAULT 0,
  last_error       text,
  retry_at         timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now()
);

-- Which process runs a singleton (each consumer) across server processes. The holder renews
-- `expires_at` by heartbeat; once it has passed (database time) another process takes over.
CREATE TABLE work_leases (
  name        text PRIMARY KEY,
  owner       text NOT NULL,
  expires_at  timestamptz NOT NULL,
  acquired_at timestamptz NOT NULL
);

-- Events a consumer declared with `dedupe: true` has applied: a redelivery skips them.
CREATE TABLE consumer_effects (
  consumer text NOT NULL,
  event_id uuid NOT NULL,
  PRIMARY KEY (consumer, event_id)
);

-- Poison events: a handler threw on every attempt; the consumer moved on without them.
-- 'retry' (set by an operator) makes the consumer run the handler on it once more.
CREATE TABLE parked_events (
  consumer    text NOT NULL,
  event_id    uuid NOT NULL,
  event_type  text NOT NULL,
  error       text NOT NULL,
  attempts    integer NOT NULL,
  state       text NOT NULL DEFAULT 'parked' CHECK (state IN ('parked', 'retry', 'resolved')),
  parked_at   timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  PRIMARY KEY (consumer, event_id)
);
CREATE INDEX parked_events_open ON parked_events (consumer, state) WHERE state <> 'resolved';

-- Timers: one row per deterministic key, written in the transaction of the event that causes it.
-- Rescheduling replaces the row (and bumps `generation`), cancelling deletes it. Workers claim
-- due rows (`next_attempt_at` against the injected clock) with FOR UPDATE SKIP LOCKED.
CREATE TABLE timers (
  key             text PRIMARY KEY,
  kind            text NOT NULL,
  due_at          timestamptz NOT NULL,
  payload         jsonb NOT NULL DEFAULT '{}',
  state           text NOT NULL DEFAULT 'scheduled'
                  CHECK (state IN ('scheduled', 'firing', 'done', 'failed', 'parked')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error      text,
  generation      integer NOT NULL DEFAULT 1,
  cause_event_id  uuid,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  fired_at        timestamptz
);
CREATE INDEX timers_due ON timers (next_attempt_at) WHERE state IN ('scheduled', 'firing', 'failed');
CREATE INDEX timers_state ON timers (state);

-- Outbound messages (push, e-mail, CRM, webhooks), written in the transaction of the causing
-- event. `id` is the idempotency key handed to the receiver. A 'sending' row's
-- `next_attempt_at` is the end of its claim: past it, a crashed sender's row is claimed again.
CREATE TABLE outbox (
  id              text PRIMARY KEY,
  kind            text NOT NULL,
  payload         jsonb NOT NULL DEFAULT '{}',
  state           text NOT NULL DEFAULT 'pending'
                  CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'dead')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT '-infinity',
  last_error      text,
  claimed_by      text,
  cause_event_id  uuid,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE state IN ('pending', 'sending', 'failed');
CREATE INDEX outbox_state ON outbox (state);
