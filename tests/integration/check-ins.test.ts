/**
 * Showroom check-in (issue 14): the four spec calls, the server's own proximity check (a client's
 * coordinates and distance are not trusted), impossible accuracy, scope (own, host
 * administrators, other corporates), the QR folio (signed, tampered, another day's), the 43200 s
 * expiry by a timer (once, by 'Sistema'), the idempotent check-out, and the host administrator's
 * showroom, guest, board and history calls. Every refusal is 4xx in the spec's shape and writes
 * nothing. Time is the injected clock; the timer worker's pass is driven by hand.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localDay, type CheckIn } from '../../src/core/check-in';
import type { Showroom } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { checkInTimerKey } from '../../src/server/check-ins/expiry';
import { signFolio } from '../../src/server/check-ins/folio';
import { checkInStream } from '../../src/server/check-ins/streams';
import { getTimer } from '../../src/server/store/timers';
import { verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { login, signedIn, type client } from './support/http';

type Client = ReturnType<typeof client>;
const HOUR = 3_600_000;
// One degree of latitude on a 6371 km sphere.
const KM_PER_DEGREE = (Math.PI * 6371) / 180;

describeBackends('showroom check-in', (backend: Backend) => {
  let now = new Date('2026-11-22T15:00:00.000Z');
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let hostess: Client;
  let admin: Client;
  let corp: string;
  let pacificoCorp: string;
  let alameda: Showroom;
  let olivos: Showroom;
  let playaAzul: Showroom;
  const ids: Record<string, string> = {};

  const db = () => rt.deps.db;
  const eventCount = async () =>
    (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const fireDue = () => rt.deps.work.timers.fireDue();
  /** Coordinates `km` north of a showroom, with this accuracy (m). */
  const near = (s: Showroom, km: number, accuracy = 20) => ({
    _latitude: s.coordenadas._latitude + km / KM_PER_DEGREE,
    _longitude: s.coordenadas._longitude,
    _accuracy: accuracy,
  });
  const save = (who: Client, body: Record<string, unknown>, c = corp) =>
    who.post(`/api/corporativos/${c}/check-ins`, body);
  const byPosition = (s: Showroom, km: number, accuracy = 20) => ({
    check: true,
    idShowroom: s.id,
    nombreShowroom: s.nombre,
    coordenadas: near(s, km, accuracy),
  });
  const current = async (who: Client, email: string) =>
    who.get(`/api/wsObtenerCheckIn?idCorporativo=${corp}&idUsuario=${ids[email]}`);
  const checkOutUrl = (checkIn: Pick<CheckIn, 'id' | 'idUsuario'>, c = corp) =>
    `/api/corporativos/${c}/check-ins/${checkIn.id}/check-out/${checkIn.idUsuario}`;
  /** Every refusal: 4xx, the spec's shape, and nothing written. */
  const refused = async (
    call: () => Promise<{ status: number; json: any }>,
    status: number,
    errorCode: string,
  ) => {
    const before = await eventCount();
    const res = await call();
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    expect(res.json).toEqual([expect.objectContaining({ errorCode, message: expect.any(String) })]);
    expect(await eventCount()).toBe(before);
    return res.json[0] as Record<string, unknown>;
  };

  /** Sessions age with the injected clock: each test signs in afresh. */
  const signInAll = async () => {
    const sign = (email: string) => signedIn(app, email, ids);
    asesor = await sign('asesor@vitrina.demo');
    asesor2 = await sign('asesor2@vitrina.demo');
    gerente = await sign('gerente@vitrina.demo');
    hostess = await sign('hostess@vitrina.demo');
    admin = await sign('admin@vitrina.demo');
  };

  beforeEach(() => signInAll());

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
    const corporates = await db().query<{ id: string; slug: string; showrooms: Showroom[] }>(
      "SELECT id, slug, doc->'showrooms' AS showrooms FROM rm_corporates",
    );
    const horizonte = corporates.rows.find((r) => r.slug === 'grupo-horizonte')!;
    const pacifico = corporates.rows.find((r) => r.slug === 'desarrollos-pacifico')!;
    corp = horizonte.id;
    pacificoCorp = pacifico.id;
    alameda = horizonte.showrooms.find((s) => s.nombre === 'Showroom Alameda')!;
    olivos = horizonte.showrooms.find((s) => s.nombre === 'Showroom Los Olivos')!;
    playaAzul = pacifico.showrooms[0]!;
    expect(alameda && olivos && playaAzul).toBeTruthy();
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  describe('checking in by position and out', () => {
    it('no check-in: wsObtenerCheckIn answers null', async () => {
      const res = await current(asesor, 'asesor@vitrina.demo');
      expect(res.status).toBe(200);
      expect(res.json).toBeNull();
    });

    it('inside the radius: 201 with the spec fields; the server measured the distance; a second check-in answers the active one and writes nothing; the host board lists it', async () => {
      const res = await save(asesor, byPosition(alameda, 0.05));
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      const checkIn = res.json as CheckIn;
      expect(checkIn).toEqual({
        id: expect.any(String),
        idCorporativo: corp,
        idUsuario: ids['asesor@vitrina.demo'],
        check: true,
        idShowroom: alameda.id,
        nombreShowroom: 'Showroom Alameda',
        coordenadas: near(alameda, 0.05),
        tipoRegistro: 'Geolocalizacion',
        fechaAlta: { _seconds: Math.floor(now.getTime() / 1000) },
        checkInActivo: true,
        distanciaKm: expect.closeTo(0.05, 6),
      });
      expect((await current(asesor, 'asesor@vitrina.demo')).json).toEqual(checkIn);
      // The expiry timer is armed at 43200 s and a millisecond.
      const timer = await getTimer(
        db(),
        checkInTimerKey(checkInStream(corp, ids['asesor@vitrina.demo']!)),
      );
      expect(timer?.state).toBe('scheduled');
      expect(new Date(timer!.dueAt).getTime()).toBe(
        checkIn.fechaAlta._seconds * 1000 + 43_200_000 + 1,
      );

      const before = await eventCount();
      const again = await save(asesor, byPosition(olivos, 0));
      expect(again.status).toBe(200);
      expect(again.json).toEqual(checkIn);
      expect(await eventCount()).toBe(before);

      const board = await hostess.get(`/api/corporativos/${corp}/showrooms/${alameda.id}/en-turno`);
      expect(board.status).toBe(200);
      expect(board.json).toEqual([
        expect.objectContaining({ id: checkIn.id, nombreUsuario: 'Sofía Navarro' }),
      ]);

      const history = await asesor.post(
        `/api/corporativos/${corp}/check-ins/${checkIn.id}/historial-check-in`,
      );
      expect(history.status).toBe(200);
      expect(history.json).toMatchObject({ id: checkIn.id, nombreUsuario: 'Sofía Navarro' });
      // Another adviser does not see it; the host administrator does.
      await refused(
        () => asesor2.post(`/api/corporativos/${corp}/check-ins/${checkIn.id}/historial-check-in`),
        404,
        'CHECK_IN_NOT_FOUND',
      );
      expect(
        (await hostess.post(`/api/corporativos/${corp}/check-ins/${checkIn.id}/historial-check-in`))
          .status,
      ).toBe(200);

      // Check-out: ends it by the adviser; idempotent; the timer is removed.
      const out = await asesor.post(checkOutUrl(checkIn), { checkInActivo: false });
      expect(out.status, JSON.stringify(out.json)).toBe(200);
      expect(out.json).toMatchObject({
        id: checkIn.id,
        checkInActivo: false,
        fechaSalida: { _seconds: Math.floor(now.getTime() / 1000) },
        motivoSalida: 'manual',
        idUsuarioSalida: ids['asesor@vitrina.demo'],
      });
      const afterOut = await eventCount();
      const twice = await asesor.post(checkOutUrl(checkIn));
      expect(twice.status).toBe(200);
      expect(twice.json).toEqual(out.json);
      expect(await eventCount()).toBe(afterOut);
      expect((await current(asesor, 'asesor@vitrina.demo')).json).toBeNull();
      expect(
        (await getTimer(db(), checkInTimerKey(checkInStream(corp, ids['asesor@vitrina.demo']!))))
          ?.state ?? 'none',
      ).not.toBe('scheduled');
      const emptyBoard = await hostess.get(
        `/api/corporativos/${corp}/showrooms/${alameda.id}/en-turno`,
      );
      expect(emptyBoard.json).toEqual([]);
    });

    it('forged coordinates: outside the radius is 422 with the distance and the radius the server computed; nothing written', async () => {
      const error = await refused(
        () => save(asesor2, byPosition(alameda, 2)),
        422,
        'CHECK_IN_TOO_FAR',
      );
      expect(error).toMatchObject({ distanciaKm: 2, radioKm: 0.12 });
      expect(error.message).toBe('Estás a 2000 m del showroom; el radio permitido es de 120 m');
      // Low accuracy (1200 m): radius 0.25 + 1.2 km. 1.3 km away is in, 1.5 km is not.
      const far = await refused(
        () => save(asesor2, byPosition(alameda, 1.5, 1200)),
        422,
        'CHECK_IN_TOO_FAR',
      );
      expect(far).toMatchObject({ distanciaKm: 1.5, radioKm: 1.45 });
      // A distance sent by the client is not part of the call.
      await refused(
        () => save(asesor2, { ...byPosition(alameda, 2), distanciaKm: 0 }),
        400,
        'VALIDATION',
      );
      const inside = await save(asesor2, byPosition(alameda, 1.3, 1200));
      expect(inside.status).toBe(201);
      expect((await asesor2.post(checkOutUrl(inside.json as CheckIn))).status).toBe(200);
    });

    it('impossible accuracy or coordinates: 400 POSITION_INVALID or VALIDATION; nothing written', async () => {
      for (const accuracy of [-5, 5001, 1e9]) {
        const error = await refused(
          () => save(asesor2, byPosition(alameda, 0, accuracy)),
          400,
          'POSITION_INVALID',
        );
        expect(error.details).toEqual([{ path: 'coordenadas._accuracy', code: 'invalid_value' }]);
      }
      await refused(
        () =>
          save(asesor2, {
            ...byPosition(alameda, 0),
            coordenadas: { _latitude: 91, _longitude: -200, _accuracy: 10 },
          }),
        400,
        'POSITION_INVALID',
      );
      for (const coordenadas of [
        { _latitude: 19.43, _longitude: -99.14, _accuracy: 'abc' },
        { _latitude: 19.43, _longitude: -99.14 },
        null,
        'here',
      ]) {
        await refused(
          () => save(asesor2, { ...byPosition(alameda, 0), coordenadas }),
          400,
          'VALIDATION',
        );
      }
      await refused(() => save(asesor2, { check: true }), 400, 'VALIDATION');
      await refused(
        () => save(asesor2, { ...byPosition(alameda, 0), check: false }),
        400,
        'VALIDATION',
      );
      await refused(
        () =>
          asesor2.post(`/api/corporativos/${corp}/check-ins`, '{"check": tru', {
            'content-type': 'application/json',
          }),
        400,
        'INVALID_JSON',
      );
    });

    it("scope: another corporate's showroom is not found, another corporate is 403, a host administrator does not check in, an unknown showroom is 404", async () => {
      await refused(() => save(asesor2, byPosition(playaAzul, 0)), 404, 'SHOWROOM_NOT_FOUND');
      await refused(() => save(asesor2, byPosition(playaAzul, 0), pacificoCorp), 403, 'FORBIDDEN');
      await refused(() => save(hostess, byPosition(alameda, 0)), 403, 'FORBIDDEN');
      await refused(
        () => save(asesor2, { ...byPosition(alameda, 0), idShowroom: 'sr-nope' }),
        404,
        'SHOWROOM_NOT_FOUND',
      );
      // Reading another adviser's check-in: only the host administrator.
      await refused(() => current(asesor, 'asesor2@vitrina.demo'), 403, 'FORBIDDEN');
      await refused(() => current(gerente, 'asesor2@vitrina.demo'), 403, 'FORBIDDEN');
      expect((await current(hostess, 'asesor2@vitrina.demo')).status).toBe(200);
      await refused(
        () =>
          asesor.get(
            `/api/wsObtenerCheckIn?idCorporativo=${pacificoCorp}&idUsuario=${ids['asesor@vitrina.demo']}`,
          ),
        403,
        'FORBIDDEN',
      );
      await refused(
        () => asesor.get(`/api/wsObtenerCheckIn?idCorporativo=${corp}`),
        400,
        'VALIDATION',
      );
    });

    it('check-out of someone else is 403; the host administrator checks anyone out; a wrong adviser or id is 404', async () => {
      const res = await save(asesor2, byPosition(olivos, 0.01));
      expect(res.status).toBe(201);
      const checkIn = res.json as CheckIn;
      await refused(() => asesor.post(checkOutUrl(checkIn)), 403, 'FORBIDDEN');
      await refused(
        () =>
          asesor.post(
            `/api/corporativos/${corp}/check-ins/${checkIn.id}/check-out/${ids['asesor@vitrina.demo']}`,
          ),
        404,
        'CHECK_IN_NOT_FOUND',
      );
      await refused(
        () => hostess.post(checkOutUrl({ ...checkIn, id: 'ci-unknown' })),
        404,
        'CHECK_IN_NOT_FOUND',
      );
      await refused(
        () => asesor2.post(checkOutUrl(checkIn), { checkInActivo: true }),
        400,
        'VALIDATION',
      );
      await refused(() => asesor2.post(checkOutUrl(checkIn, pacificoCorp)), 403, 'FORBIDDEN');
      const out = await hostess.post(checkOutUrl(checkIn));
      expect(out.status).toBe(200);
      expect(out.json).toMatchObject({
        checkInActivo: false,
        motivoSalida: 'manual',
        idUsuarioSalida: ids['hostess@vitrina.demo'],
      });
    });

    it('an inactive showroom is 409 SHOWROOM_INACTIVE; active again, it lets in', async () => {
      const put = (body: Partial<Showroom>) =>
        hostess.put(`/api/corporativos/${corp}/config-corporativo/showroom/${olivos.id}`, {
          nombre: olivos.nombre,
          activo: olivos.activo,
          coordenadas: olivos.coordenadas,
          ...body,
        });
      expect((await put({ activo: false })).status).toBe(200);
      await refused(() => save(asesor2, byPosition(olivos, 0)), 409, 'SHOWROOM_INACTIVE');
      expect((await put({ activo: true })).status).toBe(200);
      const ok = await save(asesor2, byPosition(olivos, 0));
      expect(ok.status).toBe(201);
      expect((await asesor2.post(checkOutUrl(ok.json as CheckIn))).status).toBe(200);
    });
  });

  describe('expiry', () => {
    it('43200 s after the check-in a timer checks the adviser out by Sistema, exactly once; before that it is still on', async () => {
      const res = await save(asesor, byPosition(alameda, 0));
      expect(res.status).toBe(201);
      const checkIn = res.json as CheckIn;
      const stream = checkInStream(corp, checkIn.idUsuario);
      // Exactly 43200 s: still valid (spec §4: older than 43200 s is expired).
      now = new Date(checkIn.fechaAlta._seconds * 1000 + 43_200_000);
      await fireDue();
      expect((await rt.deps.store.readStream(stream)).at(-1)!.type).toBe('CheckedIn');
      await signInAll();
      expect((await current(asesor, 'asesor@vitrina.demo')).json).toMatchObject({ id: checkIn.id });

      advance(1);
      const fired = await fireDue();
      expect(fired).toMatchObject({ done: 1, failed: 0 });
      const events = await rt.deps.store.readStream(stream);
      const outs = events.filter((e) => e.type === 'CheckedOut');
      expect(outs.at(-1)).toMatchObject({
        type: 'CheckedOut',
        actorId: null,
        data: {
          id: checkIn.id,
          motivo: 'expirado',
          idUsuarioSalida: null,
          fechaSalida: { _seconds: checkIn.fechaAlta._seconds + 43200 },
        },
      });
      const count = await eventCount();
      advance(HOUR);
      await fireDue();
      expect(await eventCount()).toBe(count);
      expect((await getTimer(db(), checkInTimerKey(stream)))?.state).toBe('done');

      await signInAll();
      expect((await current(asesor, 'asesor@vitrina.demo')).json).toBeNull();
      // The history says who: nobody (the client shows 'Sistema').
      const history = await asesor.post(
        `/api/corporativos/${corp}/check-ins/${checkIn.id}/historial-check-in`,
      );
      expect(history.json).toMatchObject({
        checkInActivo: false,
        motivoSalida: 'expirado',
        idUsuarioSalida: null,
        nombreUsuarioSalida: null,
      });
      // A check-out after the expiry: the same answer, nothing written.
      const out = await asesor.post(checkOutUrl(checkIn));
      expect(out.status).toBe(200);
      expect(out.json).toMatchObject({ motivoSalida: 'expirado' });
      expect(await eventCount()).toBe(count);
    });

    it('past 43200 s before the timer ran: not in effect; a new check-in ends it by Sistema first', async () => {
      const first = (await save(asesor, byPosition(alameda, 0))).json as CheckIn;
      advance(43_200_000 + 5_000);
      await signInAll();
      expect((await current(asesor, 'asesor@vitrina.demo')).json).toBeNull();
      const second = await save(asesor, byPosition(alameda, 0));
      expect(second.status).toBe(201);
      expect((second.json as CheckIn).id).not.toBe(first.id);
      const events = await rt.deps.store.readStream(checkInStream(corp, first.idUsuario));
      expect(events.slice(-2).map((e) => [e.type, (e.data as { motivo?: string }).motivo])).toEqual(
        [
          ['CheckedOut', 'expirado'],
          ['CheckedIn', undefined],
        ],
      );
      // The timer now belongs to the new one; firing what is due writes nothing.
      const count = await eventCount();
      await fireDue();
      expect(await eventCount()).toBe(count);
      expect((await asesor.post(checkOutUrl(second.json as CheckIn))).status).toBe(200);
    });
  });

  describe('QR folio', () => {
    const folioOf = async (s: Showroom, who: Client = hostess, c = corp) => {
      const res = await who.get(`/api/corporativos/${c}/showrooms/${s.id}/folio`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json as { folio: string; url: string; dia: string };
    };

    it("the host administrator gets today's folio and its link; an adviser checks in with it (tipoRegistro QR, no position needed)", async () => {
      const { folio, url, dia } = await folioOf(alameda);
      expect(dia).toBe(localDay(now, 'America/Mexico_City'));
      expect(url).toBe(
        `http://localhost/corporativos/grupo-horizonte/desarrollos?folio=${encodeURIComponent(folio)}`,
      );
      const res = await save(asesor2, { check: true, tipoRegistro: 'QR', folio });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json).toMatchObject({
        idShowroom: alameda.id,
        nombreShowroom: 'Showroom Alameda',
        tipoRegistro: 'QR',
        coordenadas: null,
      });
      expect((await asesor2.post(checkOutUrl(res.json as CheckIn))).status).toBe(200);
      // The poster's QR code is an SVG drawn by the server.
      const svg = await app.request(`/api/corporativos/${corp}/showrooms/${alameda.id}/qr.svg`, {
        headers: { cookie: await cookieOf('hostess@vitrina.demo') },
      });
      expect(svg.status).toBe(200);
      expect(svg.headers.get('content-type')).toContain('image/svg+xml');
      expect(await svg.text()).toMatch(/^<svg[^>]*>.*<path/s);
    });

    it("a folio changed in any place is 403 FOLIO_INVALID; another corporate's or another showroom's too; nothing written", async () => {
      const { folio } = await folioOf(alameda);
      const [kid, body, sig] = folio.split('.') as [string, string, string];
      const flip = (s: string, i: number) =>
        s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      const forged = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
        string,
        string
      >;
      const resigned = Buffer.from(JSON.stringify({ ...forged, s: olivos.id })).toString(
        'base64url',
      );
      for (const bad of [
        `${kid}.${flip(body, 3)}.${sig}`,
        `${kid}.${body}.${flip(sig, 10)}`,
        `${kid}.${body}.${flip(sig, 42)}`,
        `kzzz.${body}.${sig}`,
        `${kid}.${resigned}.${sig}`,
        'not-a-folio',
      ]) {
        await refused(
          () => save(asesor2, { check: true, tipoRegistro: 'QR', folio: bad }),
          403,
          'FOLIO_INVALID',
        );
      }
      // Signed with the deployment's key, but for another corporate: refused here.
      const otherCorporate = await signFolio(rt.deps.shareKeys, {
        c: pacificoCorp,
        s: alameda.id,
        d: localDay(now, 'America/Mexico_City'),
      });
      await refused(
        () => save(asesor2, { check: true, tipoRegistro: 'QR', folio: otherCorporate }),
        403,
        'FOLIO_INVALID',
      );
      await refused(
        () => save(asesor2, { check: true, tipoRegistro: 'QR', folio, idShowroom: olivos.id }),
        403,
        'FOLIO_INVALID',
      );
      // Only host administrators get folios; an adviser asking is 403.
      await refused(
        () => asesor.get(`/api/corporativos/${corp}/showrooms/${alameda.id}/folio`),
        403,
        'FORBIDDEN',
      );
      // A QR check-in without its folio, or a folio without QR: 400.
      await refused(() => save(asesor2, { check: true, tipoRegistro: 'QR' }), 400, 'VALIDATION');
      await refused(() => save(asesor2, { ...byPosition(alameda, 0), folio }), 400, 'VALIDATION');
    });

    it("yesterday's folio (a photo of an old poster) is 410 FOLIO_EXPIRED at midnight in the corporate's time zone", async () => {
      const { folio, dia } = await folioOf(alameda);
      // The corporate's next midnight (America/Mexico_City, UTC-6).
      const [y, m, d] = dia.split('-').map(Number) as [number, number, number];
      now = new Date(Date.UTC(y, m - 1, d + 1, 6, 0, 0) - 1);
      await signInAll();
      const ok = await save(asesor2, { check: true, tipoRegistro: 'QR', folio });
      expect(ok.status).toBe(201);
      expect((await asesor2.post(checkOutUrl(ok.json as CheckIn))).status).toBe(200);
      advance(1);
      await refused(
        () => save(asesor2, { check: true, tipoRegistro: 'QR', folio }),
        410,
        'FOLIO_EXPIRED',
      );
      const next = await folioOf(alameda);
      expect(next.folio).not.toBe(folio);
      expect(
        (await save(asesor2, { check: true, tipoRegistro: 'QR', folio: next.folio })).status,
      ).toBe(201);
    });
  });

  describe('showrooms and guests (host administrators)', () => {
    it('PUT showroom: 403 for others, 400 naming bad fields, 201 for a new id, 200 and nothing written for the same values; wsObtenerShowrooms shows it', async () => {
      const url = `/api/corporativos/${corp}/config-corporativo/showroom/sr-nuevo`;
      const body = {
        nombre: 'Showroom Reforma',
        activo: true,
        coordenadas: { _latitude: 19.4326, _longitude: -99.1675, _accuracy: 25 },
      };
      await refused(() => admin.put(url, body), 403, 'FORBIDDEN');
      await refused(() => asesor.put(url, body), 403, 'FORBIDDEN');
      const invalid = await refused(
        () =>
          hostess.put(url, {
            ...body,
            nombre: ' ',
            coordenadas: { _latitude: 100, _longitude: 0, _accuracy: -1 },
          }),
        400,
        'VALIDATION',
      );
      expect(invalid.details).toEqual([
        { path: 'nombre', code: 'invalid_value' },
        { path: 'coordenadas._latitude', code: 'invalid_value' },
        { path: 'coordenadas._accuracy', code: 'invalid_value' },
      ]);
      await refused(() => hostess.put(url, { ...body, extra: 1 }), 400, 'VALIDATION');
      // A development of another corporate, or none at all: such a showroom could never be
      // booked (an outside probe found both accepted). Nothing written.
      const devOf = async (corporate: string) =>
        (
          await db().query<{ id: string }>(
            'SELECT id FROM rm_developments WHERE corporate_id = $1 ORDER BY id LIMIT 1',
            [corporate],
          )
        ).rows[0]!.id;
      const before = await eventCount();
      for (const idDesarrollo of [await devOf(pacificoCorp), 'dev-nope', '../../x'])
        await refused(
          () => hostess.put(url, { ...body, idDesarrollo }),
          404,
          'DEVELOPMENT_NOT_FOUND',
        );
      expect(await eventCount()).toBe(before);
      await refused(
        () => hostess.put(`/api/corporativos/${corp}/config-corporativo/showroom/a%20b`, body),
        400,
        'VALIDATION',
      );
      const created = await hostess.put(url, body);
      expect(created.status).toBe(201);
      expect(created.json).toEqual({ id: 'sr-nuevo', ...body });
      const count = await eventCount();
      const same = await hostess.put(url, body);
      expect(same.status).toBe(200);
      expect(await eventCount()).toBe(count);
      const list = await asesor.get(`/api/wsObtenerShowrooms?idCorporativo=${corp}`);
      expect(list.json).toEqual(expect.arrayContaining([{ id: 'sr-nuevo', ...body }]));
      // One of the corporate's own developments is accepted.
      const own = { ...body, idDesarrollo: await devOf(corp) };
      expect((await hostess.put(url, own)).json).toEqual({ id: 'sr-nuevo', ...own });
      await hostess.put(url, body);
    });

    it('guests: invite, list with the adviser name, remove (twice is fine); bad input is 400; unknown is 404; advisers are 403', async () => {
      const url = `/api/corporativos/${corp}/showrooms/${alameda.id}/invitados`;
      const guest = {
        nombre: 'Mariana López',
        contacto: 'mariana@example.com',
        fechaVisita: '2026-11-24',
        idAsesor: ids['asesor@vitrina.demo'],
      };
      await refused(() => asesor.post(url, guest), 403, 'FORBIDDEN');
      await refused(
        () => hostess.post(url, { ...guest, fechaVisita: '2026-02-30', nombre: '' }),
        400,
        'VALIDATION',
      );
      await refused(
        () => hostess.post(url, { ...guest, idAsesor: 'nobody' }),
        400,
        'GUEST_ADVISER_INVALID',
      );
      await refused(
        () => hostess.post(`/api/corporativos/${corp}/showrooms/sr-nope/invitados`, guest),
        404,
        'SHOWROOM_NOT_FOUND',
      );
      const res = await hostess.post(url, guest);
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      const id = (res.json as { id: string }).id;
      const list = await hostess.get(`${url}?fecha=2026-11-24`);
      expect(list.json).toEqual([
        expect.objectContaining({ ...guest, id, nombreAsesor: 'Sofía Navarro' }),
      ]);
      expect((await hostess.get(`${url}?fecha=2026-11-25`)).json).toEqual([]);
      await refused(() => hostess.get(`${url}?fecha=mañana`), 400, 'VALIDATION');
      expect((await hostess.del(`${url}/${id}`)).status).toBe(200);
      const count = await eventCount();
      expect((await hostess.del(`${url}/${id}`)).status).toBe(200);
      expect(await eventCount()).toBe(count);
      await refused(() => hostess.del(`${url}/g-unknown`), 404, 'GUEST_NOT_FOUND');
      expect((await hostess.get(url)).json).toEqual([]);
      const advisers = await hostess.get(`/api/corporativos/${corp}/showrooms/asesores`);
      expect(advisers.status).toBe(200);
      expect((advisers.json as { nombre: string }[]).map((a) => a.nombre)).not.toContain('Lucía');
      expect((advisers.json as { nombre: string }[]).map((a) => a.nombre)).toContain('Sofía');
    });

    it('history of a day: every check-in of that day at the showroom, ended or not; other days empty; a bad day is 400', async () => {
      const today = (
        await hostess.get(`/api/corporativos/${corp}/showrooms/${alameda.id}/check-ins`)
      ).json as { id: string; idShowroom: string }[];
      expect(today.length).toBeGreaterThan(0);
      expect(today.every((r) => r.idShowroom === alameda.id)).toBe(true);
      const first = await hostess.get(
        `/api/corporativos/${corp}/showrooms/${alameda.id}/check-ins?fecha=2026-11-22`,
      );
      expect(first.status).toBe(200);
      expect((first.json as { nombreUsuario: string }[]).map((r) => r.nombreUsuario)).toContain(
        'Sofía Navarro',
      );
      expect(
        (
          await hostess.get(
            `/api/corporativos/${corp}/showrooms/${alameda.id}/check-ins?fecha=2020-01-01`,
          )
        ).json,
      ).toEqual([]);
      await refused(
        () =>
          hostess.get(
            `/api/corporativos/${corp}/showrooms/${alameda.id}/check-ins?fecha=2026-13-01`,
          ),
        400,
        'VALIDATION',
      );
      // The last day of 9999 ends in the year 10000 in the corporate's time zone, which the
      // database cannot read (an outside probe's 500): refused; the day before is a day.
      await refused(
        () =>
          hostess.get(
            `/api/corporativos/${corp}/showrooms/${alameda.id}/check-ins?fecha=9999-12-31`,
          ),
        400,
        'VALIDATION',
      );
      expect(
        (
          await hostess.get(
            `/api/corporativos/${corp}/showrooms/${alameda.id}/check-ins?fecha=9998-12-31`,
          )
        ).json,
      ).toEqual([]);
      await refused(
        () => gerente.get(`/api/corporativos/${corp}/showrooms/${alameda.id}/check-ins`),
        403,
        'FORBIDDEN',
      );
    });
  });

  it('the read models rebuild from the log exactly (check-ins, guests, configured showrooms, timers)', async () => {
    const comparison = await verifyProjections(rt.deps.store);
    expect(comparison.tables.filter((t) => t.onlyLive + t.onlyRebuilt + t.changed > 0)).toEqual([]);
    expect(comparison.differences).toBe(0);
    const rows = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM rm_check_ins');
    expect(rows.rows[0]!.n).toBeGreaterThan(5);
  });

  const cookieOf = (email: string) => login(app, email);
});
