-- CRM sync (issue 17). The corporate's configuration is the `corporate-crm:<corporate>` stream
-- (CrmConfigured events, the client secret in them encrypted with the deployment's CRM key);
-- rm_crm_config is its read model. Connections, authorisation states and sync health are not
-- events: they hold secrets (encrypted) or are the outbox's bookkeeping.

-- The corporate's CRM configuration (read model of the corporate-crm stream).
CREATE TABLE rm_crm_config (
  corporate_id text PRIMARY KEY,
  doc          jsonb NOT NULL
);

-- One CRM connection per adviser and corporate: tokens encrypted (AES-256-GCM), never sent to a
-- browser. estado 'reautorizar': the refresh failed, the adviser must authorise again.
CREATE TABLE crm_credentials (
  user_id        text NOT NULL,
  corporate_id   text NOT NULL,
  tipo           text NOT NULL,
  access_token   text NOT NULL,
  refresh_token  text,
  expira         timestamptz NOT NULL,
  info           jsonb NOT NULL DEFAULT '{}',
  api_domain     text,
  token_url      text NOT NULL,
  estado         text NOT NULL DEFAULT 'conectado',
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, corporate_id)
);

-- OAuth authorisation states: random, single-use, bound to the session that asked (hashes only),
-- with the PKCE verifier (encrypted) and the redirect URI the code must be exchanged with.
CREATE TABLE crm_oauth_states (
  state_hash     text PRIMARY KEY,
  session_hash   text NOT NULL,
  user_id        text NOT NULL,
  corporate_id   text NOT NULL,
  tipo           text NOT NULL,
  code_verifier  text,
  redirect_uri   text NOT NULL,
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz
);
CREATE INDEX crm_oauth_states_expires ON crm_oauth_states (expires_at);

-- Sync health per lead: the CRM record it maps to, the last write's state and the CRM's exact
-- error, and the classifieds export's result.
CREATE TABLE crm_lead_sync (
  lead_id          text PRIMARY KEY,
  corporate_id     text NOT NULL,
  crm_tipo         text,
  crm_id           text,
  estado           text NOT NULL DEFAULT 'pendiente',
  error            text,
  intentos         integer NOT NULL DEFAULT 0,
  ultimo_intento   timestamptz,
  outbox_id        text,
  export_estado    text,
  export_error     text,
  export_fecha     timestamptz,
  export_outbox_id text,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX crm_lead_sync_corporate ON crm_lead_sync (corporate_id, estado);
CREATE INDEX crm_lead_sync_crm_id ON crm_lead_sync (corporate_id, crm_id);

-- The deployment's CRM key when neither VITRINA_CRM_KEY nor a data directory holds one
-- (PostgreSQL without the variable): created once, shared by every process.
CREATE TABLE crm_keys (
  id   text PRIMARY KEY,
  key  text NOT NULL
);
