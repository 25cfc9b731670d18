-- Read models for corporates, people and the catalogue. Documents keep the spec's field names.
CREATE TABLE rm_corporates (
  id    text PRIMARY KEY,
  slug  text NOT NULL UNIQUE,
  doc   jsonb NOT NULL
);

CREATE TABLE rm_users (
  id            text PRIMARY KEY,
  email         text NOT NULL UNIQUE,
  password_hash text,
  doc           jsonb NOT NULL
);

CREATE TABLE rm_developments (
  id            text PRIMARY KEY,
  corporate_id  text NOT NULL,
  slug          text NOT NULL,
  doc           jsonb NOT NULL,
  UNIQUE (corporate_id, slug)
);

CREATE TABLE rm_clusters (
  id              text PRIMARY KEY,
  corporate_id    text NOT NULL,
  development_id  text NOT NULL,
  doc             jsonb NOT NULL
);
CREATE INDEX rm_clusters_dev ON rm_clusters (development_id);

CREATE TABLE rm_prototypes (
  id              text PRIMARY KEY,
  corporate_id    text NOT NULL,
  development_id  text NOT NULL,
  doc             jsonb NOT NULL
);
CREATE INDEX rm_prototypes_dev ON rm_prototypes (development_id);

CREATE TABLE rm_units (
  id              text PRIMARY KEY,
  corporate_id    text NOT NULL,
  development_id  text NOT NULL,
  cluster_id      text NOT NULL,
  doc             jsonb NOT NULL
);
CREATE INDEX rm_units_dev ON rm_units (development_id);

CREATE TABLE rm_media (
  id            text PRIMARY KEY,
  corporate_id  text NOT NULL,
  content_type  text NOT NULL,
  doc           jsonb NOT NULL
);
