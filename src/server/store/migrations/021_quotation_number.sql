-- Quotation numbers (issue 19): a human folio per corporate (1, 2, 3, … in the order quotations
-- were saved), assigned once by the create command under the corporate's numbering lock and
-- carried in the QuotationCreated event (`cotizacion.numero`). Quotations saved before numbers
-- existed are numbered here in the order of the log; the projection numbers such events the same
-- way on a rebuild (the next number of their corporate).
ALTER TABLE rm_quotations ADD COLUMN numero integer;
UPDATE rm_quotations q SET numero = n.numero,
       doc = jsonb_set(q.doc, '{numero}', to_jsonb(n.numero))
  FROM (SELECT id, row_number() OVER (PARTITION BY corporate_id ORDER BY posicion) AS numero
          FROM rm_quotations) n
 WHERE n.id = q.id;
ALTER TABLE rm_quotations ALTER COLUMN numero SET NOT NULL;
CREATE UNIQUE INDEX rm_quotations_numero ON rm_quotations (corporate_id, numero);
