/**
 * A showroom's check-in history for one day, as the host administrator's board lists it and as
 * the CSV export writes it, with the quote report's CSV rules (core/quote-report.ts): UTF-8
 * with a BOM, RFC 4180 quoting, CRLF, and fields that would start a formula neutralised.
 */

import { TZDate } from '@date-fns/tz';
import type { CheckIn } from './check-in';
import { csvFromRows, UTF8_BOM } from './quote-report';

/** A check-in of the history with the names of the people involved. */
export interface CheckInHistoryRow extends CheckIn {
  /** The adviser's name as it is now. */
  nombreUsuario: string;
  /** Who checked out, by name; null while active or when the expiry did ('Sistema'). */
  nombreUsuarioSalida: string | null;
}

/** The CSV's column titles and words, in the interface language. */
export interface CheckInHistoryLabels {
  asesor: string;
  showroom: string;
  entrada: string;
  salida: string;
  minutos: string;
  registro: string;
  motivo: string;
  cerradoPor: string;
  qr: string;
  geolocalizacion: string;
  manual: string;
  expirado: string;
  activo: string;
  sistema: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant (seconds) as `YYYY-MM-DD HH:mm` in `timeZone`, which spreadsheets read as a date. */
export function historyTime(seconds: number, timeZone: string): string {
  const d = new TZDate(seconds * 1000, timeZone);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Whole minutes a check-in lasted; null while it is active. */
export function checkInMinutes(row: Pick<CheckIn, 'fechaAlta' | 'fechaSalida'>): number | null {
  if (!row.fechaSalida) return null;
  return Math.max(0, Math.floor((row.fechaSalida._seconds - row.fechaAlta._seconds) / 60));
}

/** Who ended a check-in, as the history shows it: a name, 'Sistema' for the expiry, or nobody yet. */
export function closedByName(row: CheckInHistoryRow, sistema: string): string {
  if (row.checkInActivo) return '';
  return row.idUsuarioSalida ? (row.nombreUsuarioSalida ?? '') : sistema;
}

/** The day's history as CSV text (BOM first), oldest check-in first as given. */
export function checkInHistoryCsv(
  rows: readonly CheckInHistoryRow[],
  labels: CheckInHistoryLabels,
  timeZone: string,
): string {
  const header = [
    labels.asesor,
    labels.showroom,
    labels.entrada,
    labels.salida,
    labels.minutos,
    labels.registro,
    labels.motivo,
    labels.cerradoPor,
  ];
  const body = rows.map((r) => [
    r.nombreUsuario,
    r.nombreShowroom,
    historyTime(r.fechaAlta._seconds, timeZone),
    r.fechaSalida ? historyTime(r.fechaSalida._seconds, timeZone) : '',
    checkInMinutes(r) ?? '',
    r.tipoRegistro === 'QR' ? labels.qr : labels.geolocalizacion,
    r.checkInActivo
      ? labels.activo
      : r.motivoSalida === 'expirado'
        ? labels.expirado
        : labels.manual,
    closedByName(r, labels.sistema),
  ]);
  return UTF8_BOM + csvFromRows([header, ...body]);
}

/**
 * The export's file name: `Historial_Checkin_{showroom}_{dd}_{mm}_{yyyy}.csv`, the showroom's
 * name reduced to letters, digits and underscores (accents dropped).
 */
export function checkInHistoryFileName(showroomName: string, day: string): string {
  const name =
    showroomName
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'Showroom';
  const [y, m, d] = day.split('-');
  return `Historial_Checkin_${name}_${d}_${m}_${y}.csv`;
}
