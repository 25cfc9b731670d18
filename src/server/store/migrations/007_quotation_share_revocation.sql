-- Share links can be revoked (QuotationShareRevoked): the row stays, marked with the instant it
-- was turned off, so the adviser's list still shows it and the public call answers 410
-- SHARE_REVOKED instead of SHARE_INVALID. `posicion` (the QuotationShared event's global
-- position) orders a quotation's links newest first when several share one instant.
ALTER TABLE rm_quotation_shares ADD COLUMN revocado_en timestamptz;
ALTER TABLE rm_quotation_shares ADD COLUMN posicion bigint;
-- Links issued before this migration take their position from the log they were projected from.
UPDATE rm_quotation_shares s SET posicion = e.global_position
  FROM events e
 WHERE e.type = 'QuotationShared' AND e.data->>'nonce' = s.nonce;
ALTER TABLE rm_quotation_shares ALTER COLUMN posicion SET NOT NULL;
DROP INDEX rm_quotation_shares_quotation;
CREATE INDEX rm_quotation_shares_quotation ON rm_quotation_shares (quotation_id, fecha_alta DESC, posicion DESC);
