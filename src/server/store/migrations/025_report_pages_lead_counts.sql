-- Streams, pages and counters (issue 21).
-- The weekly report is read in keyset pages on (fecha_alta, posicion), every adviser's or one
-- adviser's (quotations/report-stream.ts): the indexes give the pages in order without a sort.
CREATE INDEX rm_quotations_report ON rm_quotations (corporate_id, fecha_alta, posicion);
CREATE INDEX rm_quotations_report_asesor ON rm_quotations (corporate_id, id_asesor, fecha_alta, posicion);

-- How many live leads each corporate has per adviser ('' while unassigned) and per status
-- ('' without one), kept by the leads projection in the lead's own transaction
-- (leads/projection.ts): the lead list's totals are sums of these rows, not a count(*) of
-- rm_leads. A row whose count falls to 0 is deleted, so the table is exactly the GROUP BY below
-- (and what a rebuild gives).
CREATE TABLE rm_lead_counts (
  corporate_id  text NOT NULL,
  id_vendedor   text NOT NULL,
  status        text NOT NULL,
  n             integer NOT NULL,
  PRIMARY KEY (corporate_id, id_vendedor, status)
);
INSERT INTO rm_lead_counts (corporate_id, id_vendedor, status, n)
SELECT corporate_id, coalesce(id_vendedor, ''), coalesce(status, ''), count(*)::int
  FROM rm_leads WHERE NOT eliminado
 GROUP BY 1, 2, 3;
