import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_KINDS,
  isInAppLink,
  notificationDecider,
  notificationReadsDecider,
  pushPermissionGranted,
  renderNotification,
  type Notification,
} from '../../../src/core/notifications';

const base: Notification = {
  id: 'n1',
  idCorporativo: 'c1',
  tipo: 'mensaje',
  destinatarios: ['u1', 'u2', 'u1'],
  params: {},
  titulo: 'Junta',
  mensaje: 'Mañana',
  link: '/corporativos/c1/desarrollos',
  fechaAlta: 1_764_000_000_000,
  idRemitente: 'g1',
};
const send = (n: Partial<Notification>, sent: Notification | null = null) =>
  notificationDecider.decide(
    { type: 'SendNotification', notification: { ...base, ...n } },
    { sent },
  );

describe('sending a notification', () => {
  it('given nothing sent, when sent, then NotificationSent with unique recipients', () => {
    const d = send({});
    expect(d).toEqual({
      ok: true,
      events: [{ type: 'NotificationSent', data: { ...base, destinatarios: ['u1', 'u2'] } }],
    });
  });
  it('given it was sent, when sent again (a redelivery), then nothing', () => {
    expect(send({}, base)).toEqual({ ok: true, events: [] });
  });
  it('given no recipients, then NO_RECIPIENTS', () => {
    expect(send({ destinatarios: [] })).toEqual({ ok: false, error: { code: 'NO_RECIPIENTS' } });
  });
  it('a message needs its title and text; a link is an in-app path', () => {
    expect(send({ titulo: ' ', mensaje: '', link: 'https://x.example' })).toEqual({
      ok: false,
      error: { code: 'NOTIFICATION_INVALID', campos: ['titulo', 'mensaje', 'link'] },
    });
    expect(send({ tipo: 'lead.web', titulo: undefined, mensaje: undefined, link: null }).ok).toBe(
      true,
    );
  });
  it('evolve records the sent notification', () => {
    expect(
      notificationDecider.evolve({ sent: null }, { type: 'NotificationSent', data: base }),
    ).toEqual({ sent: base });
  });
});

describe('read marks', () => {
  const mark = (esDestinatario: boolean, leida: boolean) =>
    notificationReadsDecider.decide(
      { type: 'MarkRead', idUsuario: 'u1', idNotificacion: 'n1', esDestinatario, leida },
      null,
    );
  it('given an unread notification of the user, then NotificationRead', () => {
    expect(mark(true, false)).toEqual({
      ok: true,
      events: [{ type: 'NotificationRead', data: { idUsuario: 'u1', idNotificacion: 'n1' } }],
    });
  });
  it('given it is read, then nothing; given it is not theirs, then not found', () => {
    expect(mark(true, true)).toEqual({ ok: true, events: [] });
    expect(mark(false, false)).toEqual({ ok: false, error: { code: 'NOTIFICATION_NOT_FOUND' } });
  });
  it('mark all read: one event with the unread ids; none unread, nothing', () => {
    expect(
      notificationReadsDecider.decide(
        { type: 'MarkAllRead', idUsuario: 'u1', noLeidas: ['a', 'b', 'a'] },
        null,
      ),
    ).toEqual({
      ok: true,
      events: [{ type: 'NotificationsAllRead', data: { idUsuario: 'u1', ids: ['a', 'b'] } }],
    });
    expect(
      notificationReadsDecider.decide({ type: 'MarkAllRead', idUsuario: 'u1', noLeidas: [] }, null),
    ).toEqual({ ok: true, events: [] });
  });
});

describe('texts', () => {
  it('every kind renders a title and a message in es and en, parameters filled', () => {
    for (const tipo of NOTIFICATION_KINDS) {
      for (const lang of ['es', 'en'] as const) {
        const t = renderNotification(
          {
            tipo,
            params: {
              lead: 'Ana',
              unidad: 'A101',
              horas: 2,
              cliente: 'Luis',
              hora: '10:00',
              showroom: 'S',
              broker: 'B',
              crm: 'Hubspot',
            },
            titulo: 'T',
            mensaje: 'M',
          },
          lang,
        );
        expect(t.titulo.length).toBeGreaterThan(0);
        expect(t.mensaje).not.toMatch(/[{}]/);
      }
    }
    expect(
      renderNotification({ tipo: 'lead.asignado', params: { lead: 'Ana' } }, 'en').mensaje,
    ).toBe('The lead Ana was assigned to you');
  });
  it('Spanish texts say "cliente", never the English "lead" (in the app, in push)', () => {
    for (const tipo of NOTIFICATION_KINDS) {
      const t = renderNotification({ tipo, params: {}, titulo: 'T', mensaje: 'M' }, 'es');
      expect(`${t.titulo} ${t.mensaje}`, tipo).not.toMatch(/\blead/i);
    }
    expect(renderNotification({ tipo: 'lead.asignado', params: { lead: 'Ana' } }, 'es')).toEqual({
      titulo: 'Nuevo cliente asignado',
      mensaje: 'Se te asignó el cliente Ana',
    });
  });
  it('spec §4: push permission granted is true, anything else false', () => {
    expect(pushPermissionGranted('granted')).toBe(true);
    for (const p of ['denied', 'default', '', null, undefined])
      expect(pushPermissionGranted(p)).toBe(false);
  });
  it('in-app links', () => {
    expect(isInAppLink('/corporativos/c1/clientes/l1')).toBe(true);
    for (const l of ['https://x', '//x', 'x', '/a b', '/a\\b', `/${'a'.repeat(600)}`])
      expect(isInAppLink(l)).toBe(false);
  });
});
