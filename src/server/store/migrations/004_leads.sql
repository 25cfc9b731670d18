-- Lead read models (issue 6). Documents keep the spec's field names; the other columns exist to
-- filter, sort and search without reading the documents. Search-as-you-type is a prefix match on
-- normalised text (lower case, no accents, see core/lead.ts leadSearchKeys): the search columns
-- use the C collation so plain btree indexes serve `LIKE 'prefix%'` (pg_trgm is not available
-- in PGlite). Every index is partial on live leads: deleted ones never show in a list.
CREATE TABLE rm_leads (
  id              text PRIMARY KEY,
  corporate_id    text NOT NULL,
  id_vendedor     text,             -- null while unassigned
  fecha_alta      bigint NOT NULL,
  eliminado       boolean NOT NULL DEFAULT false,
  status          text,
  desarrollo      text,
  search_name     text COLLATE "C" NOT NULL,
  search_name_rev text COLLATE "C" NOT NULL,
  email_norm      text COLLATE "C" NOT NULL,
  telefono_norm   text COLLATE "C" NOT NULL,
  celular_norm    text COLLATE "C" NOT NULL,
  doc             jsonb NOT NULL
);
CREATE INDEX rm_leads_recent ON rm_leads (corporate_id, fecha_alta DESC, id DESC) WHERE NOT eliminado;
CREATE INDEX rm_leads_owner_recent ON rm_leads (corporate_id, id_vendedor, fecha_alta DESC, id DESC) WHERE NOT eliminado;
CREATE INDEX rm_leads_search_name ON rm_leads (corporate_id, search_name) WHERE NOT eliminado;
CREATE INDEX rm_leads_search_name_rev ON rm_leads (corporate_id, search_name_rev) WHERE NOT eliminado;
CREATE INDEX rm_leads_email ON rm_leads (corporate_id, email_norm) WHERE NOT eliminado;
CREATE INDEX rm_leads_telefono ON rm_leads (corporate_id, telefono_norm) WHERE NOT eliminado;
CREATE INDEX rm_leads_celular ON rm_leads (corporate_id, celular_norm) WHERE NOT eliminado;

-- Follow-up notes (spec §3 Lead note), soft-deleted.
CREATE TABLE rm_lead_notes (
  lead_id         text NOT NULL,
  key             text NOT NULL,
  corporate_id    text NOT NULL,
  fecha_registro  bigint NOT NULL,
  eliminado       boolean NOT NULL DEFAULT false,
  doc             jsonb NOT NULL,
  PRIMARY KEY (lead_id, key)
);
CREATE INDEX rm_lead_notes_recent ON rm_lead_notes (lead_id, fecha_registro DESC) WHERE NOT eliminado;

-- Public lead capture attempts per client address, for the hourly limit across processes.
CREATE TABLE lead_capture_attempts (
  id       bigserial PRIMARY KEY,
  address  text NOT NULL,
  at       timestamptz NOT NULL
);
CREATE INDEX lead_capture_attempts_address ON lead_capture_attempts (address, at);
