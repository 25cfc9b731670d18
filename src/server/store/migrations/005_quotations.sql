-- Quotation read models (issue 7). The document is the quotation as created (spec §3 Quotation)
-- with its favourite flag; `reporte` is the same quotation flattened for the weekly CSV
-- (core/quote-report.ts QuoteReportRow), so the report reads one column per row.
CREATE TABLE rm_quotations (
  id            text PRIMARY KEY,
  corporate_id  text NOT NULL,
  id_asesor     text NOT NULL,
  id_lead       text NOT NULL,
  fecha_alta    timestamptz NOT NULL,
  posicion      bigint NOT NULL,
  es_favorito   boolean NOT NULL DEFAULT false,
  doc           jsonb NOT NULL,
  reporte       jsonb NOT NULL
);
-- Weekly report: every adviser's (Todos) or one adviser's quotations in a time range.
CREATE INDEX rm_quotations_week ON rm_quotations (corporate_id, fecha_alta);
CREATE INDEX rm_quotations_week_asesor ON rm_quotations (corporate_id, id_asesor, fecha_alta);
-- A lead's quotations, newest first.
CREATE INDEX rm_quotations_lead ON rm_quotations (corporate_id, id_lead, fecha_alta DESC, posicion DESC);

-- Share links issued: the signed token carries the nonce; a token whose nonce was never issued
-- for that quotation is refused even with a valid signature.
CREATE TABLE rm_quotation_shares (
  nonce         text PRIMARY KEY,
  quotation_id  text NOT NULL,
  corporate_id  text NOT NULL,
  expira_en     timestamptz NOT NULL,
  fecha_alta    timestamptz NOT NULL
);
CREATE INDEX rm_quotation_shares_quotation ON rm_quotation_shares (quotation_id);
