-- Sign-in sessions and failed attempts: security state, not domain facts, so plain tables.
CREATE TABLE auth_sessions (
  token_hash  text PRIMARY KEY,
  user_id     text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id);

CREATE TABLE auth_failures (
  id          bigserial PRIMARY KEY,
  account     text NOT NULL,
  address     text NOT NULL,
  at          timestamptz NOT NULL
);
CREATE INDEX auth_failures_account ON auth_failures (account, at);
CREATE INDEX auth_failures_address ON auth_failures (address, at);
