/**
 * An appointment's title (spec §3 Calendar event `titulo`) as each reader sees it.
 *
 * A title the person typed is theirs: it is shown exactly as typed, to everyone. One they did not
 * type is stored as none (`titulo: null`) and written at read time, in the reader's language, from
 * what the appointment is: its kind and its client ("Visita · Ana García" in Spanish, "Visit · Ana
 * García" in English). So a host who books in Spanish does not hand an English-speaking adviser a
 * Spanish title, in the calendar, the `.ics`, the feed or the lead's history; and a change of
 * kind or of the client's name shows in the title.
 *
 * Appointments booked before this carry the booking dialog's automatic text in the booker's
 * language, `Visita · {client}` or `Visit · {client}` (the dialog filled the field with the
 * word for a visit and the client's name). Such a text is read as the automatic title only when
 * it can be nothing else: the appointment is a visit and the text is exactly that word, ` · `
 * and the client's name as it is now. Then the Spanish reader sees the same words as before and
 * the English reader their translation. Anything else (a renamed client, another kind, one
 * character more) stays as stored.
 */
import type { Cita, TipoCita } from './appointment';

export type AppointmentLang = 'es' | 'en';

/**
 * The kinds' names, as the client's texts write them (src/ui/i18n/locales/{es,en}/appointments.json
 * `form.tipos`; tests/unit/core/appointment-title.test.ts holds them equal).
 */
export const TIPO_CITA_NAMES: Record<AppointmentLang, Record<TipoCita, string>> = {
  es: {
    visita: 'Visita',
    llamada: 'Llamada',
    videollamada: 'Videollamada',
    firma: 'Firma',
    seguimiento: 'Seguimiento',
  },
  en: {
    visita: 'Visit',
    llamada: 'Call',
    videollamada: 'Video call',
    firma: 'Signing',
    seguimiento: 'Follow-up',
  },
};

/** Between the kind and the client (the client's `automaticTitle`: `{{tipo}} · {{cliente}}`). */
export const AUTOMATIC_TITLE_SEPARATOR = ' · ';

const LANGS: readonly AppointmentLang[] = ['es', 'en'];

/** The automatic title in `lang`: the kind and the client, or the kind alone without a name. */
export function automaticAppointmentTitle(
  tipo: TipoCita,
  nombreLead: string,
  lang: AppointmentLang,
): string {
  const kind = TIPO_CITA_NAMES[lang][tipo];
  const client = nombreLead.trim();
  return client === '' ? kind : `${kind}${AUTOMATIC_TITLE_SEPARATOR}${client}`;
}

/**
 * A stored text that is the old booking dialog's automatic title (see above): a visit whose
 * title is exactly `Visita · {client}` or `Visit · {client}`, the client's name as it is now.
 */
export function isLegacyAutomaticTitle(
  titulo: string,
  tipo: TipoCita,
  nombreLead: string,
): boolean {
  if (tipo !== 'visita' || nombreLead.trim() === '') return false;
  return LANGS.some((lang) => titulo === automaticAppointmentTitle('visita', nombreLead, lang));
}

/** Whether the appointment shows the automatic title (none typed, or the old dialog's text). */
export function titleIsAutomatic(cita: Pick<Cita, 'titulo' | 'tipo'>, nombreLead: string): boolean {
  return cita.titulo === null || isLegacyAutomaticTitle(cita.titulo, cita.tipo, nombreLead);
}

/** The title `lang`'s reader sees: the typed one as typed, else the automatic one in `lang`. */
export function appointmentTitle(
  cita: Pick<Cita, 'titulo' | 'tipo'>,
  nombreLead: string,
  lang: AppointmentLang,
): string {
  if (cita.titulo !== null && !titleIsAutomatic(cita, nombreLead)) return cita.titulo;
  return automaticAppointmentTitle(cita.tipo, nombreLead, lang);
}

/**
 * Whether a title sent in a change is the automatic title a reader was shown (in any language):
 * an appointment read and sent back unchanged keeps its automatic title instead of turning it
 * into the reader's words.
 */
export function isShownAutomaticTitle(
  text: string,
  cita: Pick<Cita, 'titulo' | 'tipo'>,
  nombreLead: string,
): boolean {
  if (!titleIsAutomatic(cita, nombreLead)) return false;
  const sent = text.trim();
  return LANGS.some((lang) => sent === automaticAppointmentTitle(cita.tipo, nombreLead, lang));
}
