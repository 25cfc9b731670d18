-- Issue 21: the lead counters in shards. Every lead a corporate's adviser registers in one
-- status counted in one row, so concurrent registrations queued on that row's lock from their
-- count until their commit (a WAL flush): measured, the 90/10 mix's creates waited there ~27 ms
-- each and the whole mix was held to what one row let through. A lead now counts in the shard
-- its id ends with (`shard`, the id's last character: 16 for a UUID), so concurrent creates meet
-- on one row only when their ids end alike. The totals were sums of rows already; a row whose
-- count falls to 0 is still deleted, so the table is exactly the GROUP BY below (and what a
-- rebuild gives).
DROP TABLE rm_lead_counts;
CREATE TABLE rm_lead_counts (
  corporate_id  text NOT NULL,
  id_vendedor   text NOT NULL,
  status        text NOT NULL,
  shard         text NOT NULL,
  n             integer NOT NULL,
  PRIMARY KEY (corporate_id, id_vendedor, status, shard)
);
INSERT INTO rm_lead_counts (corporate_id, id_vendedor, status, shard, n)
SELECT corporate_id, coalesce(id_vendedor, ''), coalesce(status, ''), right(id, 1), count(*)::int
  FROM rm_leads WHERE NOT eliminado
 GROUP BY 1, 2, 3, 4;
