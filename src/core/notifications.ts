/**
 * Notifications (spec §3 Notification, §4 "reading marks read", §7 Notifications calls).
 *
 * A notification is one event, `NotificationSent`, on its own stream
 * (`notification:<corporateId>:<id>`): its kind, the users it is for, the kind's parameters and an
 * in-app link. Its title and message are rendered from the kind in the reader's language
 * ({@link renderNotification}); a manager's message (`mensaje`) carries its own text. Each user's
 * read marks are events on that user's stream of reads: `NotificationRead` (one) and
 * `NotificationsAllRead` (the ids that were unread when the user asked: a replay of the log
 * marks the same ones).
 */
import { formatClockTime } from './date-format';
import { accept, reject, type Decider } from './decider';

export type NotificationLang = 'es' | 'en';

/**
 * Every kind of notification (issue 15 point 3). Produced today: `mensaje` (a manager's message),
 * `lead.asignado`, `lead.reasignado`, `lead.web` (the public capture's round robin),
 * `apartado.por-vencer`, `apartado.vencido`. Reserved for their areas: `cita.recordatorio`
 * (appointments), `cliente.llegada` (a client at the showroom), `broker.registro` (a broker
 * waiting for approval), `crm.fallo` (a CRM sync failure on the user's leads).
 */
export const NOTIFICATION_KINDS = [
  'mensaje',
  'lead.asignado',
  'lead.reasignado',
  'lead.web',
  'apartado.por-vencer',
  'apartado.vencido',
  'cita.recordatorio',
  'cliente.llegada',
  'broker.registro',
  'crm.fallo',
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const isNotificationKind = (value: unknown): value is NotificationKind =>
  typeof value === 'string' && (NOTIFICATION_KINDS as readonly string[]).includes(value);

export type NotificationParams = Record<string, string | number>;

/** A notification as sent (the event's data and the read model's document). */
export interface Notification {
  id: string;
  idCorporativo: string;
  tipo: NotificationKind;
  /** The users it is for (unique, at least one). */
  destinatarios: string[];
  params: NotificationParams;
  /** A manager's message: its own title and text (other kinds render theirs). */
  titulo?: string;
  mensaje?: string;
  /** What it is about: an in-app path (`/corporativos/…`), or null. */
  link: string | null;
  /** When it was sent (epoch ms). */
  fechaAlta: number;
  /** Who sent it (a manager's message), or null (the system). */
  idRemitente: string | null;
}

type Template = { titulo: string; mensaje: string };

/** The kinds' texts; `{name}` is replaced by the parameter (an absent one by ''). */
const TEMPLATES: Record<
  Exclude<NotificationKind, 'mensaje'>,
  Record<NotificationLang, Template>
> = {
  'lead.asignado': {
    es: { titulo: 'Nuevo cliente asignado', mensaje: 'Se te asignó el cliente {lead}' },
    en: { titulo: 'New lead assigned', mensaje: 'The lead {lead} was assigned to you' },
  },
  'lead.reasignado': {
    es: { titulo: 'Cliente reasignado', mensaje: 'Se te reasignó el cliente {lead}' },
    en: { titulo: 'Lead reassigned', mensaje: 'The lead {lead} was reassigned to you' },
  },
  'lead.web': {
    es: {
      titulo: 'Nuevo cliente desde la web',
      mensaje: 'Te tocó el cliente {lead}, recibido desde la web',
    },
    en: { titulo: 'New web lead', mensaje: 'The lead {lead}, received from the web, is yours' },
  },
  'apartado.por-vencer': {
    es: {
      titulo: 'Apartado por vencer',
      mensaje: 'El apartado de la unidad {unidad} vence en {horas} h',
    },
    en: {
      titulo: 'Hold about to expire',
      mensaje: 'Your hold on unit {unidad} expires in {horas} h',
    },
  },
  'apartado.vencido': {
    es: {
      titulo: 'Apartado vencido',
      mensaje: 'El apartado de la unidad {unidad} venció; la unidad está disponible',
    },
    en: {
      titulo: 'Hold expired',
      mensaje: 'Your hold on unit {unidad} expired; the unit is available',
    },
  },
  'cita.recordatorio': {
    es: {
      titulo: 'Recordatorio de cita',
      mensaje: 'Tienes una cita con {cliente} a las {hora} en {showroom}',
    },
    en: {
      titulo: 'Appointment reminder',
      mensaje: 'You have an appointment with {cliente} at {hora} at {showroom}',
    },
  },
  'cliente.llegada': {
    es: { titulo: 'Tu cliente llegó', mensaje: '{cliente} llegó a {showroom}' },
    en: { titulo: 'Your client arrived', mensaje: '{cliente} arrived at {showroom}' },
  },
  'broker.registro': {
    es: {
      titulo: 'Registro de broker por aprobar',
      mensaje: '{broker} espera tu aprobación',
    },
    en: {
      titulo: 'Broker registration to approve',
      mensaje: '{broker} is waiting for your approval',
    },
  },
  'crm.fallo': {
    es: {
      titulo: 'Falló la sincronización con el CRM',
      mensaje: 'No se pudo sincronizar el cliente {lead} con {crm}',
    },
    en: {
      titulo: 'CRM sync failed',
      mensaje: 'The lead {lead} could not be synchronised with {crm}',
    },
  },
};

/**
 * The kind's text with its parameters. A `hora` is a wall-clock `HH:mm` in the corporate's zone
 * (the reminder's): it is written with the reader's clock, as every screen writes times
 * (core/date-format: `18:12` in Spanish, `6:12 PM` in English).
 */
const fill = (text: string, params: NotificationParams, lang: NotificationLang) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) return '';
    return name === 'hora' ? formatClockTime(String(value), lang) : String(value);
  });

/** The notification's title and message in `lang` (spec §3: titulo, mensaje). */
export function renderNotification(
  n: Pick<Notification, 'tipo' | 'params' | 'titulo' | 'mensaje'>,
  lang: NotificationLang,
): Template {
  if (n.tipo === 'mensaje') return { titulo: n.titulo ?? '', mensaje: n.mensaje ?? '' };
  const template = TEMPLATES[n.tipo][lang];
  return {
    titulo: fill(template.titulo, n.params, lang),
    mensaje: fill(template.mensaje, n.params, lang),
  };
}

/** Spec §4: push permission granted returns true, otherwise false. */
export function pushPermissionGranted(permission: string | null | undefined): boolean {
  return permission === 'granted';
}

export const MAX_TITLE = 120;
export const MAX_MESSAGE = 1000;
export const MAX_LINK = 500;
export const MAX_RECIPIENTS = 10_000;

/** An in-app path: starts with one `/`, no scheme, no protocol-relative `//`, no backslash. */
export function isInAppLink(link: string): boolean {
  return (
    link.length <= MAX_LINK &&
    link.startsWith('/') &&
    !link.startsWith('//') &&
    !/[\\\s]/.test(link) &&
    ![...link].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)
  );
}

// ---------------------------------------------------------------------------------------------
// The notification's stream

export type NotificationEvent = { type: 'NotificationSent'; data: Notification };

export type NotificationCommand = { type: 'SendNotification'; notification: Notification };

export type NotificationError =
  | { code: 'NO_RECIPIENTS' }
  | { code: 'NOTIFICATION_INVALID'; campos: ('titulo' | 'mensaje' | 'link' | 'params')[] };

export interface NotificationState {
  sent: Notification | null;
}

function problems(n: Notification): ('titulo' | 'mensaje' | 'link' | 'params')[] {
  const out: ('titulo' | 'mensaje' | 'link' | 'params')[] = [];
  if (n.tipo === 'mensaje') {
    const titulo = n.titulo?.trim() ?? '';
    if (titulo.length === 0 || titulo.length > MAX_TITLE) out.push('titulo');
    const mensaje = n.mensaje?.trim() ?? '';
    if (mensaje.length === 0 || mensaje.length > MAX_MESSAGE) out.push('mensaje');
  }
  if (n.link !== null && !isInAppLink(n.link)) out.push('link');
  if (Object.values(n.params).some((v) => String(v).length > 200)) out.push('params');
  return out;
}

export const notificationDecider: Decider<
  NotificationCommand,
  NotificationState,
  NotificationEvent,
  NotificationError
> = {
  initialState: { sent: null },
  decide(command, state) {
    switch (command.type) {
      case 'SendNotification': {
        // The same notification again (a producer's redelivery): already sent, nothing new.
        if (state.sent) return accept();
        const n = command.notification;
        const destinatarios = [...new Set(n.destinatarios)];
        if (destinatarios.length === 0 || destinatarios.length > MAX_RECIPIENTS)
          return reject({ code: 'NO_RECIPIENTS' });
        const campos = problems(n);
        if (campos.length > 0) return reject({ code: 'NOTIFICATION_INVALID', campos });
        return accept({ type: 'NotificationSent', data: { ...n, destinatarios } });
      }
      default: {
        const unhandled: never = command.type;
        throw new Error(`unknown command ${String(unhandled)}`);
      }
    }
  },
  evolve(state, event) {
    return event.type === 'NotificationSent' ? { sent: event.data } : state;
  },
};

// ---------------------------------------------------------------------------------------------
// A user's read marks

export type NotificationReadEvent =
  | { type: 'NotificationRead'; data: { idUsuario: string; idNotificacion: string } }
  | { type: 'NotificationsAllRead'; data: { idUsuario: string; ids: string[] } };

/**
 * What the command knows of the user's notifications (read from the read model under the
 * stream's lock): whether the notification is theirs and read, or which of theirs are unread.
 */
export type NotificationReadCommand =
  | {
      type: 'MarkRead';
      idUsuario: string;
      idNotificacion: string;
      /** The notification exists in the corporate and is for the user. */
      esDestinatario: boolean;
      leida: boolean;
    }
  | { type: 'MarkAllRead'; idUsuario: string; noLeidas: readonly string[] };

export type NotificationReadError = { code: 'NOTIFICATION_NOT_FOUND' };

export const notificationReadsDecider: Decider<
  NotificationReadCommand,
  null,
  NotificationReadEvent,
  NotificationReadError
> = {
  initialState: null,
  decide(command) {
    switch (command.type) {
      case 'MarkRead':
        if (!command.esDestinatario) return reject({ code: 'NOTIFICATION_NOT_FOUND' });
        if (command.leida) return accept();
        return accept({
          type: 'NotificationRead',
          data: { idUsuario: command.idUsuario, idNotificacion: command.idNotificacion },
        });
      case 'MarkAllRead':
        if (command.noLeidas.length === 0) return accept();
        return accept({
          type: 'NotificationsAllRead',
          data: { idUsuario: command.idUsuario, ids: [...new Set(command.noLeidas)] },
        });
      default: {
        const unhandled: never = command;
        throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
      }
    }
  },
  evolve: (state) => state,
};

export const NOTIFICATION_EVENT_TYPES = [
  'NotificationSent',
  'NotificationRead',
  'NotificationsAllRead',
] as const;
