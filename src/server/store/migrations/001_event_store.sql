-- The log: every change is an event; everything else is a projection of it.
CREATE TABLE streams (
  stream_id   text PRIMARY KEY,
  version     integer NOT NULL
);

CREATE TABLE events (
  global_position bigserial NOT NULL,
  -- Gap-safe global reads: a reader only passes transactions that are no longer in flight.
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id              uuid NOT NULL UNIQUE,
  stream_id       text NOT NULL,
  version         integer NOT NULL,
  type            text NOT NULL,
  corporate_id    text,
  actor_id        text,
  occurred_at     timestamptz NOT NULL,
  data            jsonb NOT NULL,
  PRIMARY KEY (stream_id, version)
);
CREATE INDEX events_global_order ON events (transaction_id, global_position);
CREATE INDEX events_corporate ON events (corporate_id, type);
