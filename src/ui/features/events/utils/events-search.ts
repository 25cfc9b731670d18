/** The events page's search parameters, validated (unknown or malformed values are dropped). */
import type { EventsSearch } from '../components/events-page';
import { CALENDAR_VIEWS, type CalendarView } from './calendar';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[\w-]{1,64}$/;

const str = (v: unknown, shape: RegExp) => (typeof v === 'string' && shape.test(v) ? v : undefined);

export function validateEventsSearch(raw: Record<string, unknown>): EventsSearch {
  const out: EventsSearch = {};
  const vista = raw.vista;
  if (typeof vista === 'string' && (CALENDAR_VIEWS as readonly string[]).includes(vista))
    out.vista = vista as CalendarView;
  const fecha = str(raw.fecha, DAY);
  if (fecha && !Number.isNaN(Date.parse(`${fecha}T00:00:00Z`))) out.fecha = fecha;
  for (const key of ['showroom', 'asesor', 'desarrollo', 'agendar', 'idDesarrollo'] as const) {
    const v = str(raw[key], ID);
    if (v) out[key] = v;
  }
  if (typeof raw.titulo === 'string' && raw.titulo.length <= 200) out.titulo = raw.titulo;
  return out;
}
