import {
  evolveQuotation,
  QUOTATION_EVENT_TYPES,
  quotationPart,
  type Quotation,
  type QuotationEvent,
} from '../../core/quotation';
import type { QuoteReportRow } from '../../core/quote-report';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

/** A quotation flattened for the weekly report (core/quote-report.ts), from its frozen figures. */
export function quotationReportRow(q: Quotation): QuoteReportRow {
  return {
    fechaAlta: q.fechaAlta,
    idAsesor: q.idAsesor,
    nombreAsesor: q.nombreAsesor,
    nombreCliente: q.nombreCliente,
    nombreDesarrollo: q.nombreDesarrolloInteres,
    nombreCluster: q.nombreCluster,
    nombreUnidad: q.nombreUnidad,
    nombrePrototipo: q.nombrePrototipe,
    precioLista: q.figuras.listPrice,
    descuento: q.figuras.discount,
    precioFinal: q.figuras.finalPrice,
    enganche: quotationPart(q, 'enganche'),
    diferido: quotationPart(q, 'diferido'),
    mensualidades: quotationPart(q, 'mensualidades'),
    escrituracion: quotationPart(q, 'escrituracion'),
    contraEntrega: quotationPart(q, 'contraEntrega'),
    divisa: q.divisa.codigo,
  };
}

/** The columns of one `rm_quotations` row. */
export function quotationRow(q: Quotation, occurredAt: string, position: string): unknown[] {
  return [
    q.id,
    q.idCorporativo,
    q.idAsesor,
    q.idLead,
    occurredAt,
    position,
    q.esFavorito,
    JSON.stringify(q),
    JSON.stringify(quotationReportRow(q)),
    q.numero ?? null,
  ];
}

/**
 * `rm_quotations` (one row per quotation, folded by the core's `evolveQuotation`) and
 * `rm_quotation_shares` (one row per share link issued, marked when revoked).
 */
export const quotationsProjection: Projection = {
  name: 'quotations',
  tables: ['rm_quotations', 'rm_quotation_shares'],
  handles: QUOTATION_EVENT_TYPES,
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as QuotationEvent;
    switch (event.type) {
      case 'QuotationCreated': {
        const q = evolveQuotation(null, event)!;
        // A quotation saved before numbers existed (no `numero` in its event) takes its
        // corporate's next number, as the migration numbered those already projected.
        await tx.query(
          `INSERT INTO rm_quotations (id, corporate_id, id_asesor, id_lead, fecha_alta, posicion, es_favorito, doc, reporte, numero)
           SELECT $1::text, $2::text, $3::text, $4::text, $5::timestamptz, $6::bigint, $7::boolean,
                  $8::jsonb || jsonb_build_object('numero', n.numero), $9::jsonb, n.numero
             FROM (SELECT coalesce($10::int,
                     (SELECT coalesce(max(numero), 0) + 1 FROM rm_quotations WHERE corporate_id = $2::text)) AS numero) n
           ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, reporte = EXCLUDED.reporte,
             es_favorito = EXCLUDED.es_favorito, numero = EXCLUDED.numero`,
          quotationRow(q, stored.occurredAt, stored.globalPosition),
        );
        return;
      }
      case 'QuotationFavouriteToggled':
        await tx.query(
          `UPDATE rm_quotations SET es_favorito = $2,
             doc = jsonb_set(doc, '{esFavorito}', to_jsonb($2::boolean))
           WHERE id = $1`,
          [event.data.idCotizacion, event.data.esFavorito],
        );
        return;
      case 'QuotationShared':
        await tx.query(
          `INSERT INTO rm_quotation_shares (nonce, quotation_id, corporate_id, expira_en, fecha_alta, posicion, kid)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (nonce) DO NOTHING`,
          [
            event.data.nonce,
            event.data.idCotizacion,
            event.data.idCorporativo,
            event.data.expiraEn,
            stored.occurredAt,
            stored.globalPosition,
            event.data.kid ?? null,
          ],
        );
        return;
      case 'QuotationShareRevoked':
        // Marked, not deleted: the adviser's list keeps showing the link as revoked. Only the
        // first revocation counts, so a replay lands on the same instant.
        await tx.query(
          `UPDATE rm_quotation_shares SET revocado_en = $4
            WHERE nonce = $1 AND quotation_id = $2 AND corporate_id = $3 AND revocado_en IS NULL`,
          [event.data.nonce, event.data.idCotizacion, event.data.idCorporativo, stored.occurredAt],
        );
        return;
      default: {
        const unhandled: never = event;
        throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
      }
    }
  },
};
