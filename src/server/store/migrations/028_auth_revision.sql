-- Issue 21: the authentication caches of every server process (server/auth/auth-cache.ts) are
-- checked against one counter per request on PostgreSQL. Any statement that changes a user, a
-- corporate (roles, membership rules) or ends a session bumps it in the same transaction, so a
-- process that reads a new value after the commit drops what it held, whether or not the
-- change's notification has reached it yet: a change applies on the next request everywhere.
CREATE TABLE auth_revision (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  n  bigint  NOT NULL
);
INSERT INTO auth_revision (id, n) VALUES (true, 0);

-- (One line of body: the migration runner splits statements at a line-ending semicolon.)
CREATE FUNCTION bump_auth_revision() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN UPDATE auth_revision SET n = n + 1 WHERE id; RETURN NULL; END
$$;

CREATE TRIGGER rm_users_auth_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON rm_users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_revision();
CREATE TRIGGER rm_corporates_auth_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON rm_corporates
  FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_revision();
CREATE TRIGGER auth_sessions_auth_revision AFTER UPDATE OR DELETE OR TRUNCATE ON auth_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_revision();
