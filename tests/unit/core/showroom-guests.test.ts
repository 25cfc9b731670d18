import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/core/decider';
import {
  GUEST_EVENT_TYPES,
  decideGuests,
  guestListDecider,
  type Guest,
  type GuestCommand,
  type GuestEvent,
} from '../../../src/core/showroom-guests';

const guest: Guest = {
  id: 'g-1',
  idShowroom: 'sr-alameda',
  nombre: 'Mariana López',
  contacto: 'mariana@example.com',
  fechaVisita: '2026-11-22',
  idAsesor: 'u-1',
  fechaAlta: { _seconds: 1_790_000_000 },
};
const invited: GuestEvent[] = [{ type: 'GuestInvited', data: { invitado: guest } }];

/** given these events, when this command, then… */
function given(events: GuestEvent[]) {
  return { when: (command: GuestCommand) => decideGuests(command, fold(guestListDecider, events)) };
}

describe('showroom guests decider', () => {
  it('given nothing, when inviting a guest, then GuestInvited with the name and contact trimmed', () => {
    expect(
      given([]).when({
        type: 'InviteGuest',
        guest: { ...guest, nombre: ' Mariana López ', contacto: ' mariana@example.com' },
      }),
    ).toEqual({ ok: true, events: invited });
    expect(GUEST_EVENT_TYPES).toEqual(['GuestInvited', 'GuestRemoved', 'GuestArrived']);
    expect(fold(guestListDecider, invited).guests['g-1']).toEqual(guest);
  });

  it('given nothing, when the name is empty, the day is not a calendar day and no adviser, then GUEST_INVALID naming them', () => {
    expect(
      given([]).when({
        type: 'InviteGuest',
        guest: { ...guest, nombre: ' ', fechaVisita: '2026-02-30', idAsesor: '' },
      }),
    ).toEqual({
      ok: false,
      error: { code: 'GUEST_INVALID', campos: ['nombre', 'fechaVisita', 'idAsesor'] },
    });
  });

  it('given a guest, when inviting the same id again, then GUEST_EXISTS', () => {
    expect(given(invited).when({ type: 'InviteGuest', guest })).toEqual({
      ok: false,
      error: { code: 'GUEST_EXISTS' },
    });
  });

  it('given a guest, when removing it, then GuestRemoved; removing it again writes nothing; an unknown id is GUEST_NOT_FOUND', () => {
    const removed = given(invited).when({ type: 'RemoveGuest', id: 'g-1' });
    expect(removed).toEqual({ ok: true, events: [{ type: 'GuestRemoved', data: { id: 'g-1' } }] });
    const after = [...invited, { type: 'GuestRemoved' as const, data: { id: 'g-1' } }];
    expect(fold(guestListDecider, after)).toEqual({ guests: {}, removed: ['g-1'] });
    expect(given(after).when({ type: 'RemoveGuest', id: 'g-1' })).toEqual({ ok: true, events: [] });
    expect(given(after).when({ type: 'InviteGuest', guest })).toEqual({
      ok: false,
      error: { code: 'GUEST_EXISTS' },
    });
    expect(given(invited).when({ type: 'RemoveGuest', id: 'g-x' })).toEqual({
      ok: false,
      error: { code: 'GUEST_NOT_FOUND' },
    });
  });

  it('given a guest, when they arrive, then GuestArrived carrying the guest and the time; again writes nothing; a removed or unknown guest is GUEST_NOT_FOUND', () => {
    const now = new Date(1_790_003_600_500);
    const arrived = given(invited).when({ type: 'MarkGuestArrived', id: 'g-1', now });
    expect(arrived).toEqual({
      ok: true,
      events: [
        {
          type: 'GuestArrived',
          data: { id: 'g-1', invitado: guest, llegada: { _seconds: 1_790_003_600 } },
        },
      ],
    });
    const after = [...invited, ...(arrived.ok ? arrived.events : [])];
    expect(fold(guestListDecider, after).guests['g-1']!.llegada).toEqual({
      _seconds: 1_790_003_600,
    });
    expect(given(after).when({ type: 'MarkGuestArrived', id: 'g-1', now })).toEqual({
      ok: true,
      events: [],
    });
    const removed = [...invited, { type: 'GuestRemoved' as const, data: { id: 'g-1' } }];
    for (const events of [removed, []])
      expect(given(events).when({ type: 'MarkGuestArrived', id: 'g-1', now })).toEqual({
        ok: false,
        error: { code: 'GUEST_NOT_FOUND' },
      });
  });
});
