import { afterAll, beforeAll, expect, it } from 'vitest';
import { decide, initialLeadState, normalizeLeadFields } from '../../src/core/lead';
import { SCHEME_PART_KEYS } from '../../src/core/pricing';
import { buildQuoteReportCsv, type QuoteReportRow } from '../../src/core/quote-report';
import type { Quotation } from '../../src/core/quotation';
import type { Corporate, Development, PaymentScheme, Role, Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { streams } from '../../src/server/catalogue/events';
import { leadStream } from '../../src/server/leads/streams';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, signedIn } from './support/http';

type Client = ReturnType<typeof client>;

// Wednesday 18 November 2026, 12:00 in Mexico City (UTC-6): the week runs from Monday 16 at
// 00:00 local (06:00 UTC) to Monday 23 at 00:00 local.
const WEDNESDAY = new Date('2026-11-18T18:00:00Z');
const MONDAY_START = new Date('2026-11-16T06:00:00Z');
const SUNDAY_LAST_MINUTE = new Date('2026-11-16T05:59:00Z');
const NEXT_MONDAY = new Date('2026-11-23T06:00:00Z');

describeBackends('quotations API', (backend: Backend) => {
  let now = WEDNESDAY;
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let pacifico: Client;
  let anonymous: Client;
  const ids: Record<string, string> = {};
  let corp: Corporate;
  let alameda: Development;
  let units: Unit[];
  let torreB: string;
  const leads: Record<string, string> = {};

  const url = () => `/api/corporativos/${corp.id}/cotizaciones`;
  const counts = async () => {
    const { rows } = await rt.deps.db.query<{ events: number; quotations: number; leads: number }>(
      `SELECT (SELECT count(*)::int FROM events) AS events,
              (SELECT count(*)::int FROM rm_quotations) AS quotations,
              (SELECT count(*)::int FROM rm_leads) AS leads`,
    );
    return rows[0]!;
  };
  const registerLead = async (idVendedor: string, nombre: string, apellidos: string) => {
    const id = rt.deps.newId();
    const decision = decide(
      {
        type: 'RegisterLead',
        idLead: id,
        idCorporativo: corp.id,
        idVendedor,
        fields: normalizeLeadFields({ nombre, apellidos, email: `${id.slice(0, 8)}@example.com` }),
        now: Math.floor(now.getTime() / 1000),
      },
      initialLeadState,
    );
    if (!decision.ok) throw new Error(JSON.stringify(decision.error));
    await rt.deps.store.append(
      leadStream(corp.id, id),
      0,
      decision.events.map((e) => ({
        id: rt.deps.newId(),
        type: e.type,
        data: e.data,
        corporateId: corp.id,
        actorId: idVendedor,
        occurredAt: now,
      })),
    );
    return id;
  };
  const unitWith = (status: string, clusterId?: string) => {
    const unit = units.find(
      (u) => u.status === status && (clusterId === undefined || u.idCluster === clusterId),
    );
    if (!unit) throw new Error(`no ${status} unit`);
    return unit;
  };
  const scheme = (nombre: string, clusterId?: string) =>
    alameda.esquemasPago.find(
      (s) => s.nombre === nombre && (clusterId ? s.idCluster === clusterId : !s.idCluster),
    )!;
  const publishDevelopment = async (development: Development) => {
    await rt.deps.store.append(streams.development(corp.id, development.id), 'any', [
      {
        id: rt.deps.newId(),
        type: 'DevelopmentPublished',
        data: { development },
        corporateId: corp.id,
        actorId: 'test',
        occurredAt: now,
      },
    ]);
  };
  const setRoles = async (roles: Role[]) => {
    await rt.deps.store.append(`corporate:${corp.id}`, 'any', [
      {
        id: rt.deps.newId(),
        type: 'CorporateSettingsChanged',
        data: { changes: { roles } },
        corporateId: corp.id,
        actorId: 'test',
        occurredAt: now,
      },
    ]);
  };
  const quoteFor = (who: Client, body: Record<string, unknown>) =>
    who.post(url(), {
      idUnidad: unitWith('Disponible').id,
      idEsquema: scheme('Contado').id,
      divisa: 'MXN',
      ...body,
    });

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
    const sign = (email: string) => signedIn(app, email, ids);
    asesor = await sign('asesor@vitrina.demo');
    asesor2 = await sign('asesor2@vitrina.demo');
    gerente = await sign('gerente@vitrina.demo');
    pacifico = await sign('asesor.pacifico@vitrina.demo');
    anonymous = client(app);
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    const devs = (
      await gerente.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`)
    ).json;
    alameda = devs;
    const clusters = (
      await gerente.get(
        `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${alameda.id}`,
      )
    ).json as { id: string; nombre: string; unidades: Unit[] }[];
    torreB = clusters.find((c) => c.nombre === 'Torre B')!.id;
    units = clusters.flatMap((c) => c.unidades);
    leads.asesor = await registerLead(ids['asesor@vitrina.demo']!, 'Carla', 'Jiménez');
    leads.asesor2 = await registerLead(ids['asesor2@vitrina.demo']!, 'Mateo', 'Ruiz');
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  it('lists the schemes of a cluster with its variant replacing the default, and its optionals', async () => {
    const q = `idCorporativo=${corp.id}&idDesarrollo=${alameda.id}`;
    const defaults = (await asesor.get(`/api/wsObtenerEsquemasPago?${q}`)).json as PaymentScheme[];
    expect(defaults.map((s) => s.nombre)).toEqual(['Contado', '30/70', 'Financiamiento a entrega']);
    expect(defaults.every((s) => s.idCluster === undefined)).toBe(true);
    const b = (await asesor.get(`/api/wsObtenerEsquemasPago?${q}&idCluster=${torreB}`)).json;
    expect(b.map((s: PaymentScheme) => s.nombre)).toEqual([
      'Contado',
      '30/70',
      'Financiamiento a entrega',
    ]);
    expect(b[1].idCluster).toBe(torreB);
    expect(b[1].descuento.porcentaje).toBe(0.05);
    expect(b[1].mensualidades.numeroMensualidades).toBe(24);
    expect(b.every((s: { valido: boolean }) => s.valido)).toBe(true);

    const torreA = units.find((u) => u.idCluster !== torreB)!.idCluster;
    const extrasA = (await asesor.get(`/api/wsObtenerExtrasAdicionales?${q}&idCluster=${torreA}`))
      .json;
    expect(extrasA.map((o: { nombre: string }) => o.nombre)).toEqual([
      'Bodega',
      'Cajón de estacionamiento adicional',
      'Paquete de acabados premium',
    ]);
    const extrasB = (await asesor.get(`/api/wsObtenerExtrasAdicionales?${q}&idCluster=${torreB}`))
      .json;
    expect(extrasB.map((o: { nombre: string }) => o.nombre)).toEqual([
      'Bodega',
      'Cajón de estacionamiento adicional',
    ]);
    expect((await asesor.get(`/api/wsObtenerExtrasAdicionales?${q}&idCluster=nope`)).status).toBe(
      404,
    );
    expect((await pacifico.get(`/api/wsObtenerEsquemasPago?${q}`)).status).toBe(403);
  });

  it('quotes a Disponible unit with the cluster scheme and extras; the parts add up exactly to the final price', async () => {
    const unit = unitWith('Disponible', torreB);
    const variant = scheme('30/70', torreB);
    const bodega = alameda.opcionales.find((o) => o.nombre === 'Bodega')!;
    const before = await counts();
    const res = await asesor.post(url(), {
      idUnidad: unit.id,
      idEsquema: variant.id,
      opcionales: [bodega.id],
      extras: [{ nombre: 'Cortinas', precio: 25_000.5 }],
      divisa: 'MXN',
      idLead: leads.asesor,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const q = res.json as Quotation;
    const list = unit.precio * 100;
    const discount = Math.round(list * 0.05);
    const extras = 180_000 * 100 + 2_500_050;
    expect(q.precioEnCotizacion).toBe(unit.precio);
    expect(q.figuras.listPrice).toBe(list);
    expect(q.figuras.discount).toBe(discount);
    expect(q.figuras.extras).toBe(extras);
    expect(q.figuras.finalPrice).toBe(list - discount + extras);
    const parts = q.figuras.parts.map((p) => p.amount);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(q.figuras.finalPrice);
    expect(q.figuras.parts.map((p) => p.key)).toEqual([...SCHEME_PART_KEYS]);
    expect(q.figuras.instalments).toHaveLength(24);
    const monthly = q.figuras.parts.find((p) => p.key === 'mensualidades')!.amount;
    expect(q.figuras.instalments.reduce((a, i) => a + i.amount, 0)).toBe(monthly);
    expect(q.figuras.instalments[0]!.date).toBe('2026-12-18T18:00:00.000Z');
    expect(q.esquemasPago).toEqual(variant);
    expect(q.divisa).toMatchObject({ codigo: 'MXN', tipoCambio: 1 });
    expect(q.adicionales).toEqual([
      { tipo: 'opcional', id: bodega.id, nombre: 'Bodega', monto: 18_000_000 },
      { tipo: 'extra', nombre: 'Cortinas', monto: 2_500_050 },
    ]);
    expect(q).toMatchObject({
      idAsesor: ids['asesor@vitrina.demo'],
      idLead: leads.asesor,
      idUnidad: unit.id,
      idCluster: torreB,
      nombreCluster: 'Torre B',
      nombreUnidad: unit.nombre,
      nombreDesarrolloInteres: 'Torre Alameda',
      nombreAsesor: 'Sofía Navarro',
      nombreCliente: 'Carla Jiménez',
      fechaAlta: Math.floor(WEDNESDAY.getTime() / 1000),
      esFavorito: false,
    });
    expect(await counts()).toEqual({
      ...before,
      events: before.events + 1,
      quotations: before.quotations + 1,
    });
    const stored = await rt.deps.store.readStream(`quotation:${corp.id}:${q.id}`);
    expect(stored.map((e) => e.type)).toEqual(['QuotationCreated']);
    expect(stored[0]!.corporateId).toBe(corp.id);
    expect(stored[0]!.data).toMatchObject({
      idAsesor: ids['asesor@vitrina.demo'],
      idLead: leads.asesor,
    });

    const local = await asesor.get(
      `/api/wsObtenerCotizacionesLocales?idCorporativo=${corp.id}&idLead=${leads.asesor}`,
    );
    expect(local.status).toBe(200);
    expect(local.json[0].id).toBe(q.id);
  });

  it('quotes in another currency of the corporate by the ratio of exchange rates', async () => {
    const unit = unitWith('Disponible');
    const res = await quoteFor(asesor, { idUnidad: unit.id, divisa: 'USD', idLead: leads.asesor });
    expect(res.status).toBe(201);
    expect(res.json.divisa).toMatchObject({ codigo: 'USD', tipoCambio: 18.5 });
    expect(res.json.figuras.listPrice).toBe(Math.round((unit.precio * 100) / 18.5));
    const bad = await quoteFor(asesor, { divisa: 'EUR', idLead: leads.asesor });
    expect(bad.status).toBe(400);
    expect(bad.json[0].errorCode).toBe('CURRENCY_NOT_FOUND');
  });

  it('converts an extra from the currency it was entered in: 50,000 MXN quoted in USD at 18.5', async () => {
    const unit = unitWith('Disponible');
    const cortinas = { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' };
    const res = await quoteFor(asesor, {
      idUnidad: unit.id,
      divisa: 'USD',
      extras: [cortinas],
      idLead: leads.asesor,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const q = res.json as Quotation;
    expect(q.extras).toEqual([cortinas]);
    expect(q.adicionales).toEqual([{ tipo: 'extra', nombre: 'Cortinas', monto: 270_270 }]);
    expect(q.figuras.extras).toBe(270_270);
    // Without a currency the extra is in the quoted one, as before.
    const legacy = await quoteFor(asesor, {
      idUnidad: unit.id,
      divisa: 'USD',
      extras: [{ nombre: 'Cortinas', precio: 50_000 }],
      idLead: leads.asesor,
    });
    expect(legacy.status).toBe(201);
    expect((legacy.json as Quotation).adicionales[0]!.monto).toBe(5_000_000);
    const unknown = await quoteFor(asesor, {
      extras: [{ ...cortinas, divisa: 'EUR' }],
      idLead: leads.asesor,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json[0]).toMatchObject({ errorCode: 'CURRENCY_NOT_FOUND', codigo: 'EUR' });
  });

  it('refuses a Vendido unit, an unknown unit and negative extras with 400, writing nothing', async () => {
    const before = await counts();
    const vendido = await quoteFor(asesor, {
      idUnidad: unitWith('Vendido').id,
      nuevoLead: { nombre: 'Nunca Guardado', email: 'nunca@example.com' },
    });
    expect(vendido.status).toBe(400);
    expect(vendido.json[0]).toMatchObject({
      errorCode: 'UNIT_NOT_QUOTABLE',
      message: 'La unidad no se puede cotizar en su estatus actual (Vendido)',
      status: 'Vendido',
    });
    const unknown = await quoteFor(asesor, { idUnidad: 'uni-nope', idLead: leads.asesor });
    expect(unknown.status).toBe(400);
    expect(unknown.json[0]).toMatchObject({
      errorCode: 'UNIT_NOT_FOUND',
      message: 'No se encontró la unidad',
    });
    const negative = await quoteFor(asesor, {
      extras: [{ nombre: 'Descuento disfrazado', precio: -1 }],
      nuevoLead: { nombre: 'Tampoco Guardado' },
    });
    expect(negative.status).toBe(400);
    expect(negative.json[0]).toMatchObject({
      errorCode: 'EXTRA_INVALID',
      message: 'El precio de un extra no puede ser negativo',
    });
    const otherScheme = await quoteFor(asesor, {
      idUnidad: unitWith('Disponible', torreB).id,
      idEsquema: scheme('30/70').id, // the default, which Torre B's variant overrides
      idLead: leads.asesor,
    });
    expect(otherScheme.status).toBe(400);
    expect(otherScheme.json[0].errorCode).toBe('SCHEME_NOT_FOUND');
    const clientFigures = await quoteFor(asesor, {
      idLead: leads.asesor,
      figuras: { finalPrice: 1 },
    });
    expect(clientFigures.status).toBe(400);
    const both = await quoteFor(asesor, { idLead: leads.asesor, nuevoLead: { nombre: 'X' } });
    expect(both.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses a scheme whose parts do not sum to 1', async () => {
    const broken: PaymentScheme = {
      ...scheme('Financiamiento a entrega'),
      id: 'esq-roto',
      nombre: 'Roto',
      contraEntrega: { nombre: 'Contra entrega', porcentaje: 0.48 },
    };
    alameda = { ...alameda, esquemasPago: [...alameda.esquemasPago, broken] };
    await publishDevelopment(alameda);
    const listed = (
      await asesor.get(
        `/api/wsObtenerEsquemasPago?idCorporativo=${corp.id}&idDesarrollo=${alameda.id}`,
      )
    ).json;
    expect(listed.find((s: PaymentScheme) => s.id === 'esq-roto').valido).toBe(false);
    const before = await counts();
    const res = await quoteFor(asesor, { idEsquema: 'esq-roto', idLead: leads.asesor });
    expect(res.status).toBe(400);
    expect(res.json[0].errorCode).toBe('SCHEME_INVALID');
    expect(res.json[0].message).toBe(
      'El esquema de pago no es válido: sus partes deben sumar 100 %',
    );
    expect(res.json[0].detalle).toContain('must sum to 1');
    expect(await counts()).toEqual(before);
  });

  it('lets a Propios adviser quote only for own leads; Todos quotes for any; non-members get 403', async () => {
    const before = await counts();
    const other = await quoteFor(asesor, { idLead: leads.asesor2 });
    expect(other.status).toBe(403);
    expect(other.json[0]).toMatchObject({
      errorCode: 'LEAD_FORBIDDEN',
      message: 'No tienes permisos para cotizar a este cliente',
    });
    const missing = await quoteFor(asesor, { idLead: 'lead-nope' });
    expect(missing.status).toBe(404);
    const stranger = await quoteFor(pacifico, { idLead: leads.asesor });
    expect(stranger.status).toBe(403);
    expect(stranger.json[0].message).toBe('No tienes permisos para ver el corporativo');
    expect(await counts()).toEqual(before);
    const listOther = await asesor.get(
      `/api/wsObtenerCotizacionesLocales?idCorporativo=${corp.id}&idLead=${leads.asesor2}`,
    );
    expect(listOther.status).toBe(403);

    const manager = await quoteFor(gerente, { idLead: leads.asesor2 });
    expect(manager.status).toBe(201);
    expect(manager.json.idAsesor).toBe(ids['gerente@vitrina.demo']);
    const own = await quoteFor(asesor2, { idLead: leads.asesor2 });
    expect(own.status).toBe(201);
    // asesor2 owns the lead: both quotations of it are listed, newest first.
    const list = await asesor2.get(
      `/api/wsObtenerCotizacionesLocales?idCorporativo=${corp.id}&idLead=${leads.asesor2}`,
    );
    expect(list.json.map((q: Quotation) => q.id)).toEqual([own.json.id, manager.json.id]);
  });

  it('creates a new lead and its quotation in one atomic append', async () => {
    const before = await counts();
    const res = await quoteFor(asesor, {
      nuevoLead: { nombre: 'Lucía', apellidos: 'Vega', email: 'lucia.vega@example.com' },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.nombreCliente).toBe('Lucía Vega');
    // The lead, its email's claim (lead-contacts.ts) and the quotation: one append.
    expect(await counts()).toEqual({
      events: before.events + 3,
      quotations: before.quotations + 1,
      leads: before.leads + 1,
    });
    const { rows } = await rt.deps.db.query<{ id_vendedor: string; desarrollo: string }>(
      'SELECT id_vendedor, desarrollo FROM rm_leads WHERE id = $1',
      [res.json.idLead],
    );
    expect(rows[0]).toEqual({ id_vendedor: ids['asesor@vitrina.demo'], desarrollo: alameda.id });
    const invalid = await quoteFor(asesor, { nuevoLead: { nombre: ' ', email: 'not-an-email' } });
    expect(invalid.status).toBe(400);
    // The same person again (email in other case): the existing owner is named, nothing is written.
    const duplicate = await quoteFor(asesor2, {
      nuevoLead: { nombre: 'Lucía', email: 'LUCIA.VEGA@example.com' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json[0]).toMatchObject({
      errorCode: 'LEAD_DUPLICATE',
      propietario: { nombre: 'Sofía Navarro' },
    });
    expect(await counts()).toEqual({
      events: before.events + 3,
      quotations: before.quotations + 1,
      leads: before.leads + 1,
    });
  });

  it('a client created with a quotation racing a registration of the same person: one wins, one 409', async () => {
    const [viaQuote, viaLead] = await Promise.all([
      quoteFor(asesor, {
        nuevoLead: { nombre: 'Cotiza', apellidos: 'Rápido', email: 'carrera-cotiza@example.com' },
      }),
      asesor2.post(`/api/corporativos/${corp.id}/leads`, {
        nombre: 'Registra',
        email: 'Carrera-Cotiza@example.com',
      }),
    ]);
    expect([viaQuote.status, viaLead.status].sort()).toEqual([201, 409]);
    const loser = viaQuote.status === 409 ? viaQuote : viaLead;
    expect(loser.json[0].errorCode).toBe('LEAD_DUPLICATE');
    const { rows } = await rt.deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rm_leads WHERE email_norm = 'carrera-cotiza@example.com'`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('answers the weekly report by scope, from Monday 00:00 in the corporate time zone', async () => {
    now = SUNDAY_LAST_MINUTE;
    const lastWeek = await quoteFor(asesor, { idLead: leads.asesor });
    now = MONDAY_START;
    const firstOfWeek = await quoteFor(asesor, { idLead: leads.asesor });
    now = WEDNESDAY;
    const inDollars = await quoteFor(asesor, { idLead: leads.asesor, divisa: 'USD' });
    expect(lastWeek.status).toBe(201);
    expect(firstOfWeek.status).toBe(201);
    expect(inDollars.status).toBe(201);
    const weekly = `/api/wsObtenerCotizacionesSemanales?idCorporativo=${corp.id}`;

    const all = await gerente.get(weekly);
    expect(all.status).toBe(200);
    expect(all.headers.get('x-semana-inicio')).toBe(MONDAY_START.toISOString());
    const rows = all.json as QuoteReportRow[];
    const mine = rows.filter((r) => r.idAsesor === ids['asesor@vitrina.demo']);
    expect(new Set(rows.map((r) => r.idAsesor))).toEqual(
      new Set([
        ids['asesor@vitrina.demo'],
        ids['asesor2@vitrina.demo'],
        ids['gerente@vitrina.demo'],
      ]),
    );
    expect(rows.some((r) => r.fechaAlta === Math.floor(SUNDAY_LAST_MINUTE.getTime() / 1000))).toBe(
      false,
    );
    expect(rows[0]!.fechaAlta).toBe(Math.floor(MONDAY_START.getTime() / 1000));
    const first = rows[0]!;
    expect(first).toMatchObject({
      nombreAsesor: 'Sofía Navarro',
      nombreCliente: 'Carla Jiménez',
      nombreDesarrollo: 'Torre Alameda',
      precioLista: firstOfWeek.json.figuras.listPrice,
      precioFinal: firstOfWeek.json.figuras.finalPrice,
      enganche: firstOfWeek.json.figuras.parts[0].amount,
      divisa: 'MXN',
    });
    expect(rows.find((r) => r.precioFinal === inDollars.json.figuras.finalPrice)).toMatchObject({
      divisa: 'USD',
    });
    const csv = buildQuoteReportCsv(
      rows,
      {
        language: 'es',
        viewer: { id: ids['gerente@vitrina.demo']!, isAdmin: true },
        hidePrototypeName: false,
        timeZone: corp.zonaHoraria,
      },
      now,
    );
    expect(csv.kind).toBe('report');
    if (csv.kind === 'report') {
      expect(csv.rowCount).toBe(rows.length);
      expect(csv.fileName).toBe('Reporte_Cotizaciones_18_11_2026.csv');
      // A week with MXN and USD quotations labels each row's currency.
      const lines = csv.csv.split('\r\n');
      expect(lines[0]).toContain(',Prototipo,Moneda,Precio de lista,');
      expect(lines[1]).toContain('2026-11-16 00:00,Sofía Navarro,Carla Jiménez');
      const inUsd = rows.filter((r) => r.divisa === 'USD').length;
      expect(inUsd).toBeGreaterThanOrEqual(1);
      expect(lines.filter((l) => l.includes(',USD,'))).toHaveLength(inUsd);
      expect(lines.filter((l) => l.includes(',MXN,'))).toHaveLength(rows.length - inUsd);
    }

    // An adviser without permisos.generarReporteCotizaciones gets 403 …
    const denied = await asesor.get(weekly);
    expect(denied.status).toBe(403);
    expect(denied.json[0].errorCode).toBe('REPORT_FORBIDDEN');
    // … and with it, still Propios, only their own quotations.
    const original = corp.roles;
    await setRoles(
      original.map((r) =>
        r.id === 'gru-asesor'
          ? { ...r, permisos: { ...r.permisos, generarReporteCotizaciones: true } }
          : r,
      ),
    );
    const own = await asesor.get(weekly);
    expect(own.status).toBe(200);
    expect(own.json.length).toBe(mine.length);
    expect(own.json.every((r: QuoteReportRow) => r.idAsesor === ids['asesor@vitrina.demo'])).toBe(
      true,
    );
    await setRoles(original);

    const stranger = await pacifico.get(weekly);
    expect(stranger.status).toBe(403);
    expect(stranger.json[0].message).toBe('No tienes permisos para ver el corporativo');

    now = NEXT_MONDAY;
    expect((await gerente.get(weekly)).json).toEqual([]);
    now = WEDNESDAY;
  });

  it('toggles the favourite flag of a visible quotation', async () => {
    const created = (await quoteFor(asesor, { idLead: leads.asesor })).json as Quotation;
    const fav = `${url()}/${created.id}/favorito`;
    const on = await asesor.put(fav);
    expect(on.status).toBe(200);
    expect(on.json).toEqual({ id: created.id, esFavorito: true });
    const list = await asesor.get(
      `/api/wsObtenerCotizacionesLocales?idCorporativo=${corp.id}&idLead=${leads.asesor}`,
    );
    expect(list.json.find((q: Quotation) => q.id === created.id).esFavorito).toBe(true);
    expect((await gerente.put(fav)).json.esFavorito).toBe(false);
    expect((await asesor2.put(fav)).status).toBe(404);
    expect((await pacifico.put(fav)).status).toBe(403);
    expect((await asesor.put(`${url()}/nope/favorito`)).status).toBe(404);
    const events = await rt.deps.store.readStream(`quotation:${corp.id}:${created.id}`);
    expect(events.map((e) => e.type)).toEqual([
      'QuotationCreated',
      'QuotationFavouriteToggled',
      'QuotationFavouriteToggled',
    ]);
  });

  it('shares a signed link that works signed out, expires and refuses a modified token', async () => {
    const created = (await quoteFor(asesor, { idLead: leads.asesor })).json as Quotation;
    expect((await asesor2.post(`${url()}/${created.id}/compartir`)).status).toBe(404);
    const shared = await asesor.post(`${url()}/${created.id}/compartir`);
    expect(shared.status).toBe(201);
    expect(shared.json.expiraEn).toBe(new Date(now.getTime() + 14 * 86_400_000).toISOString());
    const token = shared.json.url.replace('/public/cotizacion/', '') as string;
    expect(token).toBe(shared.json.token);

    const open = await anonymous.get(`/api/public/cotizaciones/${token}`);
    expect(open.status).toBe(200);
    expect(open.json.cotizacion).toMatchObject({
      nombreAsesor: 'Sofía Navarro',
      nombreCliente: 'Carla Jiménez',
      nombreDesarrolloInteres: 'Torre Alameda',
      figuras: created.figuras,
    });
    expect(open.json.corporativo).toMatchObject({
      nombre: 'Grupo Horizonte',
      imagen: { imagenLogo: corp.imagen.imagenLogo },
      colores: corp.colores,
    });
    // The document prints the adviser's work contact (issue 19), and nothing else of theirs.
    expect(open.json.cotizacion.asesor).toEqual({
      email: 'asesor@vitrina.demo',
      telefono: '+52 55 4120 3387',
    });
    const { asesor: _contact, ...rest } = open.json.cotizacion;
    const text = JSON.stringify({ ...open.json, cotizacion: rest });
    for (const secret of [
      'asesor@vitrina.demo',
      ids['asesor@vitrina.demo']!,
      leads.asesor!,
      created.id,
      '@example.com',
      'idAsesor',
      'idLead',
    ]) {
      expect(text).not.toContain(secret);
    }

    const [kid, body, signature] = token.split('.') as [string, string, string];
    const flip = (s: string, i: number) =>
      s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const forged of [
      `${kid}.${flip(body, 5)}.${signature}`,
      `${kid}.${body}.${flip(signature, signature.length - 1)}`,
      `${kid}.${body}.${flip(signature, 0)}`,
      `${kid}.${body}x.${signature}`,
      `${kid}x.${body}.${signature}`,
      `${body}.${signature}`,
      'not-a-token',
    ]) {
      const res = await anonymous.get(`/api/public/cotizaciones/${forged}`);
      expect(res.status, forged).toBe(404);
      expect(res.json[0]).toEqual({
        errorCode: 'SHARE_INVALID',
        message: 'El enlace de la cotización no es válido',
      });
    }

    now = new Date(now.getTime() + 14 * 86_400_000);
    const expired = await anonymous.get(`/api/public/cotizaciones/${token}`, {
      'accept-language': 'en',
    });
    expect(expired.status).toBe(410);
    expect(expired.json[0]).toEqual({
      errorCode: 'SHARE_EXPIRED',
      message: 'This quotation link has expired; ask your adviser for a new one',
    });
    now = WEDNESDAY;
    expect((await anonymous.get(`/api/public/cotizaciones/${token}`)).status).toBe(200);
  });

  it('lists share links newest first and revokes one: 410 SHARE_REVOKED for it, the others still open', async () => {
    const created = (await quoteFor(asesor, { idLead: leads.asesor })).json as Quotation;
    const other = (await quoteFor(asesor, { idLead: leads.asesor })).json as Quotation;
    const base = `${url()}/${created.id}`;
    const open = (link: { url: string }, headers?: Record<string, string>) =>
      anonymous.get(
        `/api/public/cotizaciones/${link.url.replace('/public/cotizacion/', '')}`,
        headers,
      );
    const stream = `quotation:${corp.id}:${created.id}`;
    const types = async () => (await rt.deps.store.readStream(stream)).map((e) => e.type);

    const first = (await asesor.post(`${base}/compartir`, { diasVigencia: 3 })).json;
    now = new Date(WEDNESDAY.getTime() + 60_000);
    const second = (await asesor.post(`${base}/compartir`)).json;
    // Same instant as the second: the order falls back to the log's.
    const third = (await gerente.post(`${base}/compartir`, { diasVigencia: 30 })).json;
    const elsewhere = (await asesor.post(`${url()}/${other.id}/compartir`)).json;

    const listed = await asesor.get(`${base}/compartidos`);
    expect(listed.status).toBe(200);
    expect(listed.json.map((l: { url: string }) => l.url)).toEqual([
      third.url,
      second.url,
      first.url,
    ]);
    expect(listed.json[2]).toEqual({
      nonce: expect.any(String),
      creadoEn: WEDNESDAY.toISOString(),
      expiraEn: new Date(WEDNESDAY.getTime() + 3 * 86_400_000).toISOString(),
      revocadoEn: null,
      url: first.url,
    });
    expect(listed.json[0].expiraEn).toBe(third.expiraEn);
    const [, secondLink] = listed.json as { nonce: string; url: string }[];
    // Todos users see another adviser's quotation's links too.
    expect((await gerente.get(`${base}/compartidos`)).json).toEqual(listed.json);

    now = new Date(WEDNESDAY.getTime() + 120_000);
    const revoked = await asesor.del(`${base}/compartidos/${secondLink!.nonce}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ ...secondLink, revocadoEn: now.toISOString() });
    const events = await rt.deps.store.readStream(stream);
    expect(events.at(-1)).toMatchObject({
      type: 'QuotationShareRevoked',
      actorId: ids['asesor@vitrina.demo'],
      data: {
        idCotizacion: created.id,
        idCorporativo: corp.id,
        idAsesor: ids['asesor@vitrina.demo'],
        idLead: leads.asesor,
        nonce: secondLink!.nonce,
      },
    });

    const gone = await open(secondLink!);
    expect(gone.status).toBe(410);
    expect(gone.json[0]).toEqual({
      errorCode: 'SHARE_REVOKED',
      message: 'El asesor desactivó este enlace; pídele uno nuevo',
    });
    expect((await open(secondLink!, { 'accept-language': 'en' })).json[0]).toEqual({
      errorCode: 'SHARE_REVOKED',
      message: 'The adviser has turned off this link; ask them for a new one',
    });
    expect((await open(first)).status).toBe(200);
    expect((await open(third)).status).toBe(200);
    expect((await open(elsewhere)).status).toBe(200);
    const after = (await asesor.get(`${base}/compartidos`)).json;
    expect(after.map((l: { revocadoEn: string | null }) => l.revocadoEn)).toEqual([
      null,
      now.toISOString(),
      null,
    ]);

    // Idempotent: the same answer, nothing written, the first revocation's instant kept.
    const before = await counts();
    const streamBefore = await types();
    now = new Date(WEDNESDAY.getTime() + 180_000);
    const again = await gerente.del(`${base}/compartidos/${secondLink!.nonce}`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(revoked.json);

    // Errors write nothing.
    const unknown = await asesor.del(`${base}/compartidos/no-such-nonce`);
    expect(unknown.status).toBe(404);
    expect(unknown.json[0]).toEqual({
      errorCode: 'SHARE_NOT_FOUND',
      message: 'No se encontró el enlace de la cotización',
    });
    const otherNonce = (await asesor.get(`${url()}/${other.id}/compartidos`)).json[0].nonce;
    expect((await asesor.del(`${base}/compartidos/${otherNonce}`)).json[0].errorCode).toBe(
      'SHARE_NOT_FOUND',
    );
    for (const res of [
      await asesor2.get(`${base}/compartidos`),
      await asesor2.del(`${base}/compartidos/${listed.json[0].nonce}`),
      await asesor.del(`${url()}/nope/compartidos/${listed.json[0].nonce}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json[0].errorCode).toBe('QUOTATION_NOT_FOUND');
    }
    expect((await pacifico.del(`${base}/compartidos/${listed.json[0].nonce}`)).status).toBe(403);
    expect((await anonymous.get(`${base}/compartidos`)).status).toBe(401);
    expect((await anonymous.del(`${base}/compartidos/${listed.json[0].nonce}`)).status).toBe(401);
    expect(await counts()).toEqual(before);
    expect(await types()).toEqual(streamBefore);
    expect(streamBefore).toEqual([
      'QuotationCreated',
      'QuotationShared',
      'QuotationShared',
      'QuotationShared',
      'QuotationShareRevoked',
    ]);
    expect((await open(third)).status).toBe(200);

    // The read models are the log's: a rebuild gives the same rows, the revocation included.
    const snapshot = async () => ({
      quotations: (await rt.deps.db.query('SELECT * FROM rm_quotations ORDER BY id')).rows,
      shares: (await rt.deps.db.query('SELECT * FROM rm_quotation_shares ORDER BY nonce')).rows,
    });
    const projected = await snapshot();
    expect(projected.shares.filter((r) => r.revocado_en !== null)).toHaveLength(1);
    await rt.deps.store.rebuildProjections();
    expect(await snapshot()).toEqual(projected);
    expect((await open(secondLink!)).status).toBe(410);
    now = WEDNESDAY;
  });

  it('simulates for visitors with visible prices only, saving nothing', async () => {
    const before = await counts();
    const sim = `/api/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/simular`;
    const unit = unitWith('Disponible');
    const ok = await anonymous.post(sim, { idUnidad: unit.id, idEsquema: scheme('30/70').id });
    expect(ok.status).toBe(200);
    expect(ok.json.figuras.listPrice).toBe(unit.precio * 100);
    expect(
      ok.json.figuras.parts.reduce((a: number, p: { amount: number }) => a + p.amount, 0),
    ).toBe(ok.json.figuras.finalPrice);
    expect(JSON.stringify(ok.json)).not.toMatch(/idAsesor|idLead|nombreAsesor|nombreCliente/);
    const hidden = await anonymous.post(sim, {
      idUnidad: unitWith('Apartado').id,
      idEsquema: scheme('30/70').id,
    });
    expect(hidden.status).toBe(403);
    expect(hidden.json[0]).toEqual({
      errorCode: 'PRICE_NOT_VISIBLE',
      message: 'El precio de esta unidad no es público',
    });
    expect(JSON.stringify(hidden.json)).not.toContain(String(unitWith('Apartado').precio));
    const unknown = await anonymous.post(sim, { idUnidad: 'uni-nope', idEsquema: 'x' });
    expect(unknown.status).toBe(404);
    const otherDev = await anonymous.post(
      `/api/public/corporativos/grupo-horizonte/desarrollos/residencial-los-olivos/simular`,
      { idUnidad: unit.id, idEsquema: scheme('30/70').id },
    );
    expect(otherDev.status).toBe(404);
    expect(await counts()).toEqual(before);
  });

  // Concurrent writes of one quotation queue on its stream (store/command-handler.ts): each
  // request decides on what the one before it left, so none fails and none is lost.
  it('20 concurrent favourite toggles of one quotation: all 200, alternating, the last one stands', async () => {
    const created = (await quoteFor(asesor, { idLead: leads.asesor })).json as Quotation;
    const fav = `${url()}/${created.id}/favorito`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? asesor : gerente).put(fav)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const flags = answers.map((r) => r.json.esFavorito as boolean);
    expect(flags.filter(Boolean)).toHaveLength(10);

    const events = await rt.deps.store.readStream(`quotation:${corp.id}:${created.id}`);
    const toggles = events.slice(1).map((e) => (e.data as { esFavorito: boolean }).esFavorito);
    // Each toggle flips the flag the previous one left: true, false, true, … — 20 of them.
    expect(toggles).toEqual(Array.from({ length: 20 }, (_, i) => i % 2 === 0));
    const { rows } = await rt.deps.db.query<{ es_favorito: boolean; fav: boolean }>(
      `SELECT es_favorito, (doc->>'esFavorito')::boolean AS fav FROM rm_quotations WHERE id = $1`,
      [created.id],
    );
    expect(rows[0]).toEqual({ es_favorito: toggles.at(-1), fav: toggles.at(-1) });
    const list = await asesor.get(
      `/api/wsObtenerCotizacionesLocales?idCorporativo=${corp.id}&idLead=${leads.asesor}`,
    );
    expect(list.json.find((q: Quotation) => q.id === created.id).esFavorito).toBe(false);
  });

  it('20 concurrent share links of one quotation: all issued, listed and open', async () => {
    const created = (await quoteFor(asesor, { idLead: leads.asesor })).json as Quotation;
    const base = `${url()}/${created.id}`;
    const shared = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? asesor : gerente).post(`${base}/compartir`, { diasVigencia: 1 + i }),
      ),
    );
    expect(shared.map((r) => r.status)).toEqual(Array(20).fill(201));
    const listed = (await asesor.get(`${base}/compartidos`)).json as { url: string }[];
    expect(listed).toHaveLength(20);
    expect(new Set(listed.map((l) => l.url))).toEqual(new Set(shared.map((r) => r.json.url)));
    const events = await rt.deps.store.readStream(`quotation:${corp.id}:${created.id}`);
    expect(events.map((e) => e.type)).toEqual([
      'QuotationCreated',
      ...Array<string>(20).fill('QuotationShared'),
    ]);
    for (const res of shared) {
      const open = await anonymous.get(`/api/public/cotizaciones/${res.json.token}`);
      expect(open.status).toBe(200);
      expect(open.json.expiraEn).toBe(res.json.expiraEn);
    }
  });

  it('revoking a link twice, even at once, revokes it once; an unknown nonce is 404 SHARE_NOT_FOUND', async () => {
    const created = (await quoteFor(asesor, { idLead: leads.asesor })).json as Quotation;
    const base = `${url()}/${created.id}`;
    const link = (await asesor.post(`${base}/compartir`)).json as { token: string };
    const [share] = (await asesor.get(`${base}/compartidos`)).json as { nonce: string }[];
    const stream = `quotation:${corp.id}:${created.id}`;

    const revocations = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        (i % 2 === 0 ? asesor : gerente).del(`${base}/compartidos/${share!.nonce}`),
      ),
    );
    expect(revocations.map((r) => r.status)).toEqual(Array(5).fill(200));
    const first = revocations[0]!.json as { revocadoEn: string };
    expect(first.revocadoEn).toBe(now.toISOString());
    for (const r of revocations) expect(r.json).toEqual(first);

    const before = await counts();
    const again = await asesor.del(`${base}/compartidos/${share!.nonce}`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first);
    expect(await counts()).toEqual(before);
    expect((await rt.deps.store.readStream(stream)).map((e) => e.type)).toEqual([
      'QuotationCreated',
      'QuotationShared',
      'QuotationShareRevoked',
    ]);
    expect((await anonymous.get(`/api/public/cotizaciones/${link.token}`)).status).toBe(410);

    const unknown = await gerente.del(`${base}/compartidos/never-issued`);
    expect(unknown.status).toBe(404);
    expect(unknown.json[0]).toEqual({
      errorCode: 'SHARE_NOT_FOUND',
      message: 'No se encontró el enlace de la cotización',
    });
    expect(await counts()).toEqual(before);
  });

  it('two saves at once of a quotation with the same new client: one lead, one quotation, one 409', async () => {
    const before = await counts();
    const save = () =>
      quoteFor(asesor, {
        nuevoLead: { nombre: 'Doble', apellidos: 'Clic', email: 'doble.clic@example.com' },
      });
    const answers = await Promise.all([save(), save()]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const saved = answers.find((r) => r.status === 201)!.json as Quotation;
    const refused = answers.find((r) => r.status === 409)!.json;
    // The caller's own lead: the 409 names it so the screen can open it.
    expect(refused[0]).toMatchObject({
      errorCode: 'LEAD_DUPLICATE',
      idLead: saved.idLead,
      propio: true,
    });
    const { rows } = await rt.deps.db.query<{ id: string }>(
      `SELECT id FROM rm_leads WHERE email_norm = 'doble.clic@example.com'`,
    );
    expect(rows).toEqual([{ id: saved.idLead }]);
    // The lead, its email's claim and the quotation: the loser wrote nothing.
    expect(await counts()).toEqual({
      events: before.events + 3,
      quotations: before.quotations + 1,
      leads: before.leads + 1,
    });
  });
});
