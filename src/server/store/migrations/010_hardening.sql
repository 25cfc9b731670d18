-- The public capture's round robin as one counter row per corporate (leads/round-robin.ts): a
-- capture takes its turn with one atomic upsert late in its transaction, instead of locking a
-- stream every capture of the corporate appends to. A read model of the log: each turn is
-- recorded in its LeadAssigned event (`turno`), so a rebuild reproduces it. Turns taken before
-- this migration were LeadRoundRobinAdvanced events on the stream lead-roundrobin:<corporate>
-- (the stream's version was the turn); the projection still reads them.
CREATE TABLE rm_lead_rotation (
  corporate_id  text PRIMARY KEY,
  turns         integer NOT NULL,
  last_adviser  text NOT NULL
);
INSERT INTO rm_lead_rotation (corporate_id, turns, last_adviser)
SELECT DISTINCT ON (corporate_id) corporate_id, version, data->>'idVendedor'
  FROM events
 WHERE type = 'LeadRoundRobinAdvanced' AND corporate_id IS NOT NULL
 ORDER BY corporate_id, version DESC;

-- The sign-in throttle counts failures per account and address pair (auth/throttle.ts).
CREATE INDEX auth_failures_pair ON auth_failures (account, address, at);
-- Housekeeping purges by age (store/housekeeping.ts).
CREATE INDEX auth_failures_at ON auth_failures (at);
CREATE INDEX auth_sessions_expires ON auth_sessions (expires_at);
CREATE INDEX lead_capture_attempts_at ON lead_capture_attempts (at);
