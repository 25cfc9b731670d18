/**
 * Each producer of notifications (issue 15 point 3) as given these events, then these
 * notifications: the decisions are pure (server/notifications/producers.ts); the consumer and
 * the timer only look up names and send what they decide.
 */
import { describe, expect, it } from 'vitest';
import {
  HOLD_WARNING,
  HOLD_WARNING_HOURS,
  holdExpiredNotice,
  holdWarningKey,
  holdWarningNotice,
  holdWarningTimers,
  leadAssignedNotice,
} from '../../../src/server/notifications/producers';
import type { StoredEvent } from '../../../src/server/store/event-store';

const event = (type: string, data: unknown, actorId: string | null = 'gerente'): StoredEvent => ({
  id: 'e1',
  type,
  streamId: 'unit:c1:u1',
  version: 3,
  corporateId: 'c1',
  actorId,
  occurredAt: '2026-11-25T10:00:00.000Z',
  data,
  globalPosition: '1',
});
const leadLookup = { corporateSlug: 'horizonte', leadName: 'Ana López' };
const unitLookup = { corporateSlug: 'horizonte', unitName: 'A1602', developmentSlug: 'alameda' };
const assigned = (data: Record<string, unknown>, actor: string | null = 'gerente') =>
  leadAssignedNotice(
    event(
      'LeadAssigned',
      { idLead: 'l1', idCorporativo: 'c1', idVendedor: data.to, ...data },
      actor,
    ),
    leadLookup,
  );

describe('a lead assigned or reassigned to you', () => {
  it('given an unassigned lead given by a manager, then lead.asignado for the adviser, linked', () => {
    expect(assigned({ from: null, to: 'asesor' })).toEqual({
      corporateId: 'c1',
      userIds: ['asesor'],
      kind: 'lead.asignado',
      params: { lead: 'Ana López' },
      link: '/corporativos/horizonte/clientes/l1',
    });
  });
  it('given the manager’s own lead given away, then lead.asignado', () => {
    expect(assigned({ from: 'gerente', to: 'asesor' })?.kind).toBe('lead.asignado');
  });
  it('given another adviser’s lead moved to you, then lead.reasignado', () => {
    expect(assigned({ from: 'asesor2', to: 'asesor' })?.kind).toBe('lead.reasignado');
  });
  it('given a lead taken by the adviser themselves, then nothing', () => {
    expect(assigned({ from: null, to: 'asesor' }, 'asesor')).toBeNull();
  });
});

describe('a new web lead given to you by the round robin', () => {
  it('given the capture’s LeadAssigned with its turn (no actor), then lead.web', () => {
    expect(assigned({ from: null, to: 'asesor', turno: 7 }, null)).toMatchObject({
      kind: 'lead.web',
      userIds: ['asesor'],
    });
  });
});

describe('your unit hold expired', () => {
  it('given an expiry release, then apartado.vencido for the holder, linked to the unit', () => {
    expect(
      holdExpiredNotice(
        event(
          'UnitHoldReleased',
          { idUnidad: 'u1', idVendedor: 'asesor', motivo: 'expired' },
          null,
        ),
        unitLookup,
      ),
    ).toEqual({
      corporateId: 'c1',
      userIds: ['asesor'],
      kind: 'apartado.vencido',
      params: { unidad: 'A1602' },
      link: '/corporativos/horizonte/desarrollos/alameda/disponibilidad?unidad=u1',
    });
  });
  it('given a release by hand, then nothing', () => {
    expect(
      holdExpiredNotice(
        event('UnitHoldReleased', { idUnidad: 'u1', idVendedor: 'asesor', motivo: 'manual' }),
        unitLookup,
      ),
    ).toBeNull();
  });
});

describe('your unit hold about to expire', () => {
  const payload = {
    streamId: 'unit:c1:u1',
    corporateId: 'c1',
    idUnidad: 'u1',
    hastaEn: '2026-11-27T10:00:00.000Z',
  };
  it('given a hold, then its warning timer 2 h before the end', async () => {
    const effects: unknown[] = [];
    const tx = {
      query: (sql: string, params?: unknown[]) => {
        effects.push({ sql: sql.trim().split(/\s+/)[0], params });
        // appendedInThisTransaction: yes, a live append.
        return Promise.resolve({ rows: [{}] } as never);
      },
    };
    await holdWarningTimers.apply(
      tx as never,
      event('UnitHeld', { idUnidad: 'u1', hastaEn: payload.hastaEn, idVendedor: 'asesor' }),
    );
    const insert = effects.find((e) => (e as { sql: string }).sql === 'INSERT') as {
      params: unknown[];
    };
    expect(insert.params).toContain(holdWarningKey('unit:c1:u1'));
    expect(insert.params).toContain(HOLD_WARNING);
    expect(insert.params).toContain(
      new Date(Date.parse(payload.hastaEn) - HOLD_WARNING_HOURS * 3_600_000).toISOString(),
    );
  });
  it('given the same hold when the timer fires, then apartado.por-vencer for the holder', () => {
    expect(
      holdWarningNotice({ idVendedor: 'asesor', hastaEn: payload.hastaEn }, payload, unitLookup),
    ).toMatchObject({
      kind: 'apartado.por-vencer',
      userIds: ['asesor'],
      params: { unidad: 'A1602', horas: 2 },
    });
  });
  it('given the hold ended or was extended meanwhile, then nothing', () => {
    expect(holdWarningNotice(null, payload, unitLookup)).toBeNull();
    expect(
      holdWarningNotice(
        { idVendedor: 'asesor', hastaEn: '2026-11-28T10:00:00.000Z' },
        payload,
        unitLookup,
      ),
    ).toBeNull();
  });
});
