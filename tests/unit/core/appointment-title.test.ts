/**
 * An appointment's title (core/appointment-title.ts): a typed title is kept exactly as typed and
 * read the same by everyone; none typed stores no text (null) and each reader gets the automatic
 * title, kind and client, in their own language. The booking dialog's old automatic text
 * (`Visita · {client}` / `Visit · {client}`) reads as automatic only when it can be nothing else.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  appointmentDecider,
  decideAppointment,
  normalizeAppointmentTitle,
  TIPOS_CITA,
  type AppointmentCommand,
  type AppointmentEvent,
  type Cita,
} from '../../../src/core/appointment';
import {
  appointmentTitle,
  AUTOMATIC_TITLE_SEPARATOR,
  automaticAppointmentTitle,
  isLegacyAutomaticTitle,
  isShownAutomaticTitle,
  TIPO_CITA_NAMES,
  titleIsAutomatic,
} from '../../../src/core/appointment-title';
import { fold } from '../../../src/core/decider';
import type { Corporate, Role, Showroom, User } from '../../../src/core/types';

const adviser: Role = {
  id: 'asesor',
  nombre: 'Asesor',
  permisos: {},
  permisosLeads: { alcanceLeads: 'Propios' },
  permisosUsuarios: {},
};
const by = { user: { id: 'u-1' } as User, corporate: { id: 'corp-1' } as Corporate, role: adviser };
const alameda: Showroom = {
  id: 'sr-1',
  nombre: 'Showroom Alameda',
  activo: true,
  coordenadas: { _latitude: 19.43, _longitude: -99.14 },
};
const facts = { showroom: alameda, developmentExists: true, adviserIsMember: true };
const now = new Date('2026-11-25T15:00:00.000Z');

const book = (titulo: string | null): AppointmentCommand => ({
  type: 'ScheduleAppointment',
  by,
  cita: {
    id: 'ci-1',
    idDesarrollo: 'dev-1',
    idShowroom: 'sr-1',
    fechaInicio: '2026-11-26T17:00:00.000Z',
    fechaFin: '2026-11-26T18:00:00.000Z',
    titulo,
    tipo: 'visita',
    idLead: 'lead-1',
    idAsesor: 'u-1',
    enviarRecordatorio: true,
    enviarAntesDe: '10_MIN',
  },
  lead: { id: 'lead-1', idCorporativo: 'corp-1', idVendedor: 'u-1' },
  facts,
  now,
});

function eventsOf(events: AppointmentEvent[], command: AppointmentCommand): AppointmentEvent[] {
  const decision = decideAppointment(command, fold(appointmentDecider, events));
  if (!decision.ok) throw new Error(`expected events, got ${decision.error.code}`);
  return decision.events;
}
const storedTitle = (events: AppointmentEvent[]) => fold(appointmentDecider, events).cita?.titulo;
const retitle = (titulo: string | null): AppointmentCommand => ({
  type: 'ChangeAppointmentDetails',
  by,
  changes: { titulo },
  facts,
});

const ANA = 'Ana García';
const cita = (titulo: string | null, tipo: Cita['tipo'] = 'visita') => ({ titulo, tipo });

describe('the stored title', () => {
  it('given no booking, when booked without a typed title (absent, blank), then no text is stored', () => {
    for (const none of [null, '', '   ']) {
      const events = eventsOf([], book(none));
      expect(storedTitle(events)).toBeNull();
    }
  });

  it('given no booking, when booked with a typed title, then it is stored as typed (trimmed)', () => {
    expect(storedTitle(eventsOf([], book('  Firma con el notario ')))).toBe('Firma con el notario');
    // Even the automatic title's very words, typed: they are the person's now.
    expect(storedTitle(eventsOf([], book('Llamada · Ana García')))).toBe('Llamada · Ana García');
  });

  it('given a typed title, when it is emptied, then the appointment goes back to no text; given none, an empty one writes nothing', () => {
    const typed = eventsOf([], book('Firma'));
    const emptied = eventsOf(typed, retitle('  '));
    expect(emptied).toEqual([
      expect.objectContaining({
        type: 'AppointmentDetailsChanged',
        data: expect.objectContaining({ changes: { titulo: null }, anterior: { titulo: 'Firma' } }),
      }),
    ]);
    expect(storedTitle([...typed, ...emptied])).toBeNull();
    const automatic = eventsOf([], book(null));
    expect(eventsOf(automatic, retitle(''))).toEqual([]);
    expect(eventsOf(automatic, retitle(null))).toEqual([]);
    expect(storedTitle([...automatic, ...eventsOf(automatic, retitle(' Recorrido '))])).toBe(
      'Recorrido',
    );
  });

  it('normalizeAppointmentTitle: none for absent, null and blank; trimmed text otherwise', () => {
    expect(normalizeAppointmentTitle(undefined)).toBeNull();
    expect(normalizeAppointmentTitle(null)).toBeNull();
    expect(normalizeAppointmentTitle(' \t ')).toBeNull();
    expect(normalizeAppointmentTitle(' Visita ')).toBe('Visita');
  });
});

describe('the title each reader sees', () => {
  it('none typed: the kind and the client in the reader’s language', () => {
    expect(appointmentTitle(cita(null), ANA, 'es')).toBe('Visita · Ana García');
    expect(appointmentTitle(cita(null), ANA, 'en')).toBe('Visit · Ana García');
    expect(appointmentTitle(cita(null, 'llamada'), ANA, 'en')).toBe('Call · Ana García');
    expect(appointmentTitle(cita(null, 'firma'), ANA, 'es')).toBe('Firma · Ana García');
    // Without a client's name (a lead gone from the read model): the kind alone.
    expect(appointmentTitle(cita(null), '', 'en')).toBe('Visit');
    expect(titleIsAutomatic(cita(null), ANA)).toBe(true);
  });

  it('typed: exactly as typed, in every language', () => {
    for (const lang of ['es', 'en'] as const) {
      expect(appointmentTitle(cita('Visita al departamento muestra'), ANA, lang)).toBe(
        'Visita al departamento muestra',
      );
      expect(appointmentTitle(cita('Visita · Ana'), ANA, lang)).toBe('Visita · Ana');
    }
    expect(titleIsAutomatic(cita('Visita al departamento muestra'), ANA)).toBe(false);
  });

  it('the old dialog’s text reads as automatic only for a visit, exactly, with the client’s name as it is', () => {
    expect(appointmentTitle(cita('Visita · Ana García'), ANA, 'en')).toBe('Visit · Ana García');
    expect(appointmentTitle(cita('Visit · Ana García'), ANA, 'es')).toBe('Visita · Ana García');
    expect(isLegacyAutomaticTitle('Visita · Ana García', 'visita', ANA)).toBe(true);
    // Anything else stays as stored.
    expect(appointmentTitle(cita('Visita · Ana García'), 'Ana García López', 'en')).toBe(
      'Visita · Ana García',
    );
    expect(appointmentTitle(cita('Visita · Ana García', 'llamada'), ANA, 'en')).toBe(
      'Visita · Ana García',
    );
    expect(appointmentTitle(cita('Visita · Ana García.'), ANA, 'en')).toBe('Visita · Ana García.');
    expect(appointmentTitle(cita('visita · Ana García'), ANA, 'en')).toBe('visita · Ana García');
    expect(appointmentTitle(cita('Visita - Ana García'), ANA, 'en')).toBe('Visita - Ana García');
    expect(isLegacyAutomaticTitle('Visita', 'visita', '')).toBe(false);
  });

  it('an automatic title sent back as shown, in either language, is no new title; a typed one is', () => {
    expect(isShownAutomaticTitle('Visit · Ana García', cita(null), ANA)).toBe(true);
    expect(isShownAutomaticTitle(' Visita · Ana García ', cita(null), ANA)).toBe(true);
    expect(isShownAutomaticTitle('Call · Ana García', cita(null, 'llamada'), ANA)).toBe(true);
    expect(isShownAutomaticTitle('Visita · Ana García', cita('Visit · Ana García'), ANA)).toBe(
      true,
    );
    expect(isShownAutomaticTitle('Call · Ana García', cita(null), ANA)).toBe(false);
    expect(isShownAutomaticTitle('Visit · Ana García', cita('Firma'), ANA)).toBe(false);
  });
});

describe('the server’s texts are the client’s', () => {
  const texts = (lng: string) =>
    JSON.parse(readFileSync(`src/ui/i18n/locales/${lng}/appointments.json`, 'utf8')) as {
      automaticTitle: string;
      form: { tipos: Record<string, string> };
    };

  it('every kind’s name and the automatic title’s shape, in es and en', () => {
    for (const lang of ['es', 'en'] as const) {
      const client = texts(lang);
      expect(client.form.tipos).toEqual(TIPO_CITA_NAMES[lang]);
      expect(Object.keys(TIPO_CITA_NAMES[lang]).sort()).toEqual([...TIPOS_CITA].sort());
      expect(client.automaticTitle).toBe(`{{tipo}}${AUTOMATIC_TITLE_SEPARATOR}{{cliente}}`);
      for (const tipo of TIPOS_CITA)
        expect(automaticAppointmentTitle(tipo, ANA, lang)).toBe(
          client.automaticTitle
            .replace('{{tipo}}', client.form.tipos[tipo]!)
            .replace('{{cliente}}', ANA),
        );
    }
  });
});
