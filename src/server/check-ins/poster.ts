/**
 * The showroom's QR poster (issue 14): the QR code of the check-in link, drawn on the server with
 * the `qrcode` package as SVG (scales to any paper size; the poster page prints it). Nothing here
 * is fetched or written: the SVG is computed from the link.
 */
import QRCode from 'qrcode';

/** The check-in link a folio opens: the developments list, whose banner checks in (spec §3: QR). */
export function folioPath(corporateSlug: string, folio: string): string {
  return `/corporativos/${encodeURIComponent(corporateSlug)}/desarrollos?folio=${encodeURIComponent(folio)}`;
}

/** The QR code of `url` as an SVG document (black on white, a quiet zone of 2 modules). */
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
