/**
 * Appointments as iCalendar (RFC 5545) text, for the `.ics` download and each user's calendar
 * subscription (issue 23 point 7): one `VEVENT` per appointment, in UTC, with a `VALARM` at
 * the appointment's reminder offset (`TRIGGER:-PT10M` or `-PT5M`) when it has one, and
 * `STATUS:CANCELLED` for a cancelled one so subscribed calendars drop it. Pure text: the server
 * serves it, tests parse it with an independent parser.
 */
import { REMINDER_MINUTES, type Cita } from './appointment';

/** An appointment for a calendar file: its title already written for the file's reader. */
export interface IcsAppointment extends Omit<Cita, 'titulo'> {
  /** The typed title, or the automatic one in the reader's language (core/appointment-title.ts). */
  titulo: string;
  nombreLead?: string;
  nombreShowroom?: string;
  nombreAsesor?: string;
}

/** `20261126T170000Z` */
export function icsInstant(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Escapes a TEXT value (RFC 5545 §3.3.11). */
export function icsText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
export function icsFold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = new TextEncoder().encode(ch).length;
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** The iCalendar text of some appointments (lines end in CRLF). */
export function appointmentsToIcs(
  citas: readonly IcsAppointment[],
  options: { now: Date; calendarName: string; host?: string },
): string {
  const host = options.host ?? 'vitrina';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Vitrina//Citas//ES',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${icsText(options.calendarName)}`,
  ];
  for (const c of citas) {
    const summary = c.nombreLead ? `${c.titulo} — ${c.nombreLead}` : c.titulo;
    const description = [c.nombreLead, c.nombreAsesor].filter(Boolean).join(' · ');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${c.id}@${host}`,
      `DTSTAMP:${icsInstant(options.now)}`,
      `DTSTART:${icsInstant(c.fechaInicio)}`,
      `DTEND:${icsInstant(c.fechaFin)}`,
      `SUMMARY:${icsText(summary)}`,
      ...(c.nombreShowroom ? [`LOCATION:${icsText(c.nombreShowroom)}`] : []),
      ...(description ? [`DESCRIPTION:${icsText(description)}`] : []),
      `STATUS:${c.activo ? 'CONFIRMED' : 'CANCELLED'}`,
    );
    if (c.activo && c.enviarRecordatorio)
      lines.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `DESCRIPTION:${icsText(summary)}`,
        `TRIGGER:-PT${REMINDER_MINUTES[c.enviarAntesDe]}M`,
        'END:VALARM',
      );
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(icsFold).join('\r\n') + '\r\n';
}
