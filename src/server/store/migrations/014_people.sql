-- People (issue 16): single-use links for invitations and password recovery, the rate-limit log
-- of registration and recovery, and the deployment's key the links are derived from. Security
-- state, not domain facts (like auth_sessions): plain tables. A link's token is never stored: the
-- row keeps its SHA-256 (token_hash); the mail is written at send time from the row's id and the
-- key (mail/links.ts), so neither the outbox nor this table holds a usable link.
CREATE TABLE user_tokens (
  id            text PRIMARY KEY,
  token_hash    text NOT NULL UNIQUE,
  kind          text NOT NULL CHECK (kind IN ('invitacion', 'recuperacion')),
  user_id       text NOT NULL,
  corporate_id  text,
  email         text NOT NULL,
  created_by    text,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX user_tokens_user ON user_tokens (user_id, kind);
CREATE INDEX user_tokens_pending ON user_tokens (corporate_id, kind, created_at DESC)
  WHERE used_at IS NULL AND revoked_at IS NULL;

-- Attempts of the public people calls, counted per subject ('recovery:address:…',
-- 'recovery:email:…', 'registration:address:…', 'registration:email:…'); http/rate-limit.ts.
CREATE TABLE people_attempts (
  id       bigserial PRIMARY KEY,
  subject  text NOT NULL,
  at       timestamptz NOT NULL
);
CREATE INDEX people_attempts_subject ON people_attempts (subject, at);

-- The key links are derived from (HMAC of the token row's id); one row, created on first use.
CREATE TABLE people_link_key (
  id      integer PRIMARY KEY CHECK (id = 1),
  secret  text NOT NULL
);
