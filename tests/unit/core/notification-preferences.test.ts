import { describe, expect, it } from 'vitest';
import {
  allPreferences,
  initialNotificationPreferences,
  notificationPreferencesDecider,
  preferenceFor,
  type NotificationPreferences,
  type NotificationPreferencesCommand,
  type NotificationPreferencesEvent,
} from '../../../src/core/notification-preferences';
import { NOTIFICATION_KINDS } from '../../../src/core/notifications';
import { fold } from '../../../src/core/decider';

/** Given these events, when this command: the decision. */
const given = (events: NotificationPreferencesEvent[]) => ({
  when: (change: Omit<NotificationPreferencesCommand, 'type' | 'idUsuario'>) =>
    notificationPreferencesDecider.decide(
      { type: 'UpdateNotificationPreferences', idUsuario: 'u1', ...change },
      fold(notificationPreferencesDecider, events),
    ),
});

const changed = (
  tipos: Extract<
    NotificationPreferencesEvent,
    { type: 'NotificationPreferencesChanged' }
  >['data']['tipos'],
): NotificationPreferencesEvent => ({
  type: 'NotificationPreferencesChanged',
  data: { idUsuario: 'u1', tipos },
});

describe('notification preferences', () => {
  it('given nothing chosen, every kind is on in the app and for push, and the language is es', () => {
    const all = allPreferences(initialNotificationPreferences);
    expect(all.idioma).toBe('es');
    expect(Object.keys(all.tipos)).toEqual([...NOTIFICATION_KINDS]);
    for (const k of NOTIFICATION_KINDS) expect(all.tipos[k]).toEqual({ app: true, push: true });
  });

  it('given nothing chosen, when push is turned off for a kind, then that kind changes with its whole value', () => {
    expect(given([]).when({ tipos: { 'lead.web': { push: false } } })).toEqual({
      ok: true,
      events: [changed({ 'lead.web': { app: true, push: false } })],
    });
  });

  it('given push off for a kind, when the app is turned off too, then the kept push choice stays', () => {
    expect(
      given([changed({ 'lead.web': { app: true, push: false } })]).when({
        tipos: { 'lead.web': { app: false } },
      }),
    ).toEqual({ ok: true, events: [changed({ 'lead.web': { app: false, push: false } })] });
  });

  it('when nothing would change (the same values, an empty change), then no event', () => {
    expect(given([]).when({ tipos: { mensaje: { app: true, push: true } } })).toEqual({
      ok: true,
      events: [],
    });
    expect(given([]).when({})).toEqual({ ok: true, events: [] });
  });

  it('only the kinds that change are in the event', () => {
    const d = given([changed({ mensaje: { app: false, push: true } })]).when({
      tipos: { mensaje: { app: false }, 'crm.fallo': { push: false } },
    });
    expect(d).toEqual({ ok: true, events: [changed({ 'crm.fallo': { app: true, push: false } })] });
  });

  it('when the language is chosen (es included: never chosen is not es), then NotificationLanguageChosen; chosen again, nothing', () => {
    expect(given([]).when({ idioma: 'es' })).toEqual({
      ok: true,
      events: [{ type: 'NotificationLanguageChosen', data: { idUsuario: 'u1', idioma: 'es' } }],
    });
    expect(allPreferences(initialNotificationPreferences, 'en').idioma).toBe('en');
    const chosen: NotificationPreferencesEvent = {
      type: 'NotificationLanguageChosen',
      data: { idUsuario: 'u1', idioma: 'en' },
    };
    expect(given([]).when({ idioma: 'en' })).toEqual({ ok: true, events: [chosen] });
    expect(given([chosen]).when({ idioma: 'en' })).toEqual({ ok: true, events: [] });
  });

  it('when a kind is unknown or the language is not es/en, then PREFERENCES_INVALID naming them, nothing else decided', () => {
    expect(
      given([]).when({
        tipos: { 'lead.web': { push: false }, nada: { app: false } },
        idioma: 'fr',
      }),
    ).toEqual({
      ok: false,
      error: { code: 'PREFERENCES_INVALID', campos: ['tipos.nada', 'idioma'] },
    });
    expect(given([]).when({ tipos: { mensaje: { app: 'no' as unknown as boolean } } })).toEqual({
      ok: false,
      error: { code: 'PREFERENCES_INVALID', campos: ['tipos.mensaje'] },
    });
  });

  it('evolve: the latest choice of each kind, and the language', () => {
    const state: NotificationPreferences = fold(notificationPreferencesDecider, [
      changed({ mensaje: { app: false, push: false }, 'lead.web': { app: true, push: false } }),
      changed({ mensaje: { app: true, push: false } }),
      { type: 'NotificationLanguageChosen', data: { idUsuario: 'u1', idioma: 'en' } },
    ]);
    expect(preferenceFor(state, 'mensaje')).toEqual({ app: true, push: false });
    expect(preferenceFor(state, 'lead.web')).toEqual({ app: true, push: false });
    expect(preferenceFor(state, 'crm.fallo')).toEqual({ app: true, push: true });
    expect(state.idioma).toBe('en');
  });
});
