import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Unit } from '../../src/core/types';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

describeBackends('catalogue, public and inventory API', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let admin: ReturnType<typeof client>;
  let asesor: ReturnType<typeof client>;
  let pacifico: ReturnType<typeof client>;
  let horizonteId: string;
  let alameda: { id: string; slug: string };

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    admin = client(app, await login(app, 'admin@vitrina.demo'));
    asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    pacifico = client(app, await login(app, 'asesor.pacifico@vitrina.demo'));
    horizonteId = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    const devs = (await admin.get(`/api/wsObtenerDesarrollos?idCorporativo=${horizonteId}`)).json;
    alameda = devs.find((d: { slug: string }) => d.slug === 'torre-alameda');
  });
  afterAll(async () => {
    await rt.dispose();
  });

  it('lists enApp developments ordered by orden, with figures from the units', async () => {
    const res = await asesor.get(
      `/api/wsObtenerDesarrollos?idCorporativo=${horizonteId}&ocultarDesarrollosSinUnidades=si`,
    );
    expect(res.status).toBe(200);
    expect(res.json.map((d: { slug: string }) => d.slug)).toEqual([
      'torre-alameda',
      'residencial-los-olivos',
    ]);
    expect(res.json[0].totalUnidades).toBe(248);
    expect(res.json[1].totalUnidades).toBe(120);
    expect(res.json[0].precioDesde).toBeGreaterThanOrEqual(2_500_000);
  });

  it('rent from (spec §5): the lowest numeric precioRenta among the units whose price the caller sees, per development, or null', async () => {
    const pacificoId = (await pacifico.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico'))
      .json.id as string;
    let withRent = 0;
    let withoutRent = 0;
    for (const [who, corp] of [
      [asesor, horizonteId],
      [pacifico, pacificoId],
    ] as const) {
      const list = (await who.get(`/api/wsObtenerDesarrollos?idCorporativo=${corp}`)).json as {
        id: string;
        precioRentaDesde: number | null;
      }[];
      for (const d of list) {
        const clusters = (
          await who.get(`/api/wsObtenerClusters?idCorporativo=${corp}&idDesarrollo=${d.id}`)
        ).json as { unidades: Unit[] }[];
        const rents = clusters
          .flatMap((c) => c.unidades)
          .map((u) => u.precioRenta)
          .filter((r): r is number => typeof r === 'number' && r > 0);
        expect(d.precioRentaDesde).toBe(rents.length > 0 ? Math.min(...rents) : null);
        if (rents.length > 0) withRent += 1;
        else withoutRent += 1;
      }
    }
    expect(withoutRent, 'the demo has developments without rent').toBeGreaterThan(0);
    expect(withRent, 'the demo has rentable units').toBeGreaterThan(0);
  });

  it('answers clusters with their units, every one of the eight statuses present', async () => {
    const res = await asesor.get(
      `/api/wsObtenerClusters?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.json.map((c: { nombre: string }) => c.nombre)).toEqual(['Torre A', 'Torre B']);
    const units: Unit[] = res.json.flatMap((c: { unidades: Unit[] }) => c.unidades);
    expect(units).toHaveLength(248);
    expect(new Set(units.map((u) => u.status)).size).toBe(8);
    // An adviser gets the price of the units whose status shows it (issue 13: a hidden price is
    // for inventory administrators only).
    for (const u of units) {
      if (u.status !== 'Disponible') {
        expect(u).not.toHaveProperty('precio');
        continue;
      }
      expect(u.precio).toBeGreaterThanOrEqual(2_500_000);
      expect(u.precio).toBeLessThanOrEqual(18_000_000);
    }
  });

  it('refuses another corporate with 403 and the spec message, and bad input with 400', async () => {
    const res = await pacifico.get(`/api/wsObtenerDesarrollos?idCorporativo=${horizonteId}`);
    expect(res.status).toBe(403);
    expect(res.json[0]).toEqual({
      errorCode: 'FORBIDDEN',
      message: 'No tienes permisos para ver el corporativo',
    });
    const en = await pacifico.get(
      `/api/wsObtenerClusters?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}`,
      { 'accept-language': 'en' },
    );
    expect(en.json[0].message).toBe('You do not have permission to view this corporate');
    const bad = await asesor.get('/api/wsObtenerDesarrollos');
    expect(bad.status).toBe(400);
    expect(bad.json[0].errorCode).toBe('VALIDATION');
    const extra = await asesor.get(`/api/wsObtenerDesarrollos?idCorporativo=${horizonteId}&x=1`);
    expect(extra.status).toBe(400);
    expect((await asesor.get('/api/wsNoExiste')).status).toBe(404);
    expect((await asesor.get('/api/wsObtenerCorporativo?slug=no-existe')).json[0].message).toBe(
      'No se encontró corporativo',
    );
  });

  it('serves generated media with caching headers', async () => {
    const dev = (
      await asesor.get(`/api/wsObtenerDesarrollo?idCorporativo=${horizonteId}&slug=torre-alameda`)
    ).json;
    const res = await app.request(`/api/media/${dev.imagenPortada}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toContain('max-age');
    expect(await res.text()).toContain('<svg');
  });

  it('public availability shows no hidden price and no adviser data', async () => {
    const res = await client(app).get(
      '/api/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad',
    );
    expect(res.status).toBe(200);
    const units = res.json.clusters.flatMap(
      (c: { unidades: Record<string, unknown>[] }) => c.unidades,
    );
    expect(units).toHaveLength(248);
    for (const u of units) {
      if (u.status === 'Disponible') expect(typeof u.precio).toBe('number');
      else expect(u).not.toHaveProperty('precio');
    }
    const text = JSON.stringify(res.json);
    expect(text).not.toMatch(/idVendedor|idAsesor|roles|password|email/);
  });

  it('changes a unit status as an event, with history, only with administrarInventario', async () => {
    const clusters = (
      await admin.get(
        `/api/wsObtenerClusters?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}`,
      )
    ).json;
    const unit: Unit = clusters[0].unidades.find((u: Unit) => u.status === 'Disponible');
    const denied = await asesor.put(`/api/corporativos/${horizonteId}/unidades/${unit.id}/status`, {
      status: 'Vendido',
      statusAnterior: 'Disponible',
    });
    expect(denied.status).toBe(403);
    const bad = await admin.put(`/api/corporativos/${horizonteId}/unidades/${unit.id}/status`, {
      status: 'Regalado',
      statusAnterior: 'Disponible',
    });
    expect(bad.status).toBe(400);
    // A change must say what the administrator saw.
    const blind = await admin.put(`/api/corporativos/${horizonteId}/unidades/${unit.id}/status`, {
      status: 'Apartado',
    });
    expect(blind.status).toBe(400);
    const ok = await admin.put(`/api/corporativos/${horizonteId}/unidades/${unit.id}/status`, {
      status: 'Apartado',
      statusAnterior: 'Disponible',
    });
    expect(ok.status).toBe(200);
    expect(ok.json.status).toBe('Apartado');
    // A second administrator still looking at 'Disponible' is told, and shown the unit as it is.
    const stale = await admin.put(`/api/corporativos/${horizonteId}/unidades/${unit.id}/status`, {
      status: 'Vendido',
      statusAnterior: 'Disponible',
    });
    expect(stale.status).toBe(409);
    expect(stale.json[0]).toMatchObject({ errorCode: 'CONFLICT', unidad: { status: 'Apartado' } });
    const stalePrice = await admin.put(
      `/api/corporativos/${horizonteId}/unidades/${unit.id}/precio`,
      { precio: 1, precioAnterior: unit.precio + 1 },
    );
    expect(stalePrice.status).toBe(409);
    // The history records stored prices: a unit without its own price (spec §4, shown at its
    // prototype's) had 0.
    const stored = (
      await rt.deps.db.query<{ precio: number }>(
        `SELECT (doc->>'precio')::float8 AS precio FROM rm_units WHERE id = $1`,
        [unit.id],
      )
    ).rows[0]!.precio;
    const price = await admin.put(`/api/corporativos/${horizonteId}/unidades/${unit.id}/precio`, {
      precio: 5_000_000,
      precioAnterior: unit.precio,
    });
    expect(price.json.precio).toBe(5_000_000);
    const history = (
      await admin.get(`/api/corporativos/${horizonteId}/unidades/${unit.id}/historial`)
    ).json;
    expect(history.slice(0, 2)).toMatchObject([
      { campo: 'precio', anterior: stored, nuevo: 5_000_000, actor: 'Ana Robles' },
      { campo: 'status', anterior: 'Disponible', nuevo: 'Apartado', actor: 'Ana Robles' },
    ]);
    // The adviser sees the status line; the price, hidden while 'Apartado', is not there.
    const advisers = (
      await asesor.get(`/api/corporativos/${horizonteId}/unidades/${unit.id}/historial`)
    ).json;
    expect(advisers[0]).toMatchObject({ campo: 'status', nuevo: 'Apartado' });
    expect(advisers.some((l: { campo: string }) => l.campo === 'precio')).toBe(false);
    // The listing by the seed is nobody's change by hand: "Sistema", "System" in English.
    expect(history.at(-1)).toMatchObject({ tipo: 'UnitListed', actor: 'Sistema' });
    const inEnglish = (
      await asesor.get(`/api/corporativos/${horizonteId}/unidades/${unit.id}/historial`, {
        'accept-language': 'en-US,en;q=0.9',
      })
    ).json;
    expect(inEnglish.at(-1)).toMatchObject({ tipo: 'UnitListed', actor: 'System' });
    // Visitors see it as well, without the price now that it is not visible.
    const pub = (
      await client(app).get(
        '/api/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad',
      )
    ).json;
    const seen = pub.clusters
      .flatMap((c: { unidades: Record<string, unknown>[] }) => c.unidades)
      .find((u: { id: string }) => u.id === unit.id);
    expect(seen.status).toBe('Apartado');
    expect(seen).not.toHaveProperty('precio');
  });

  it('imports a CSV whole, or rejects it whole with each line and reason', async () => {
    const path = `/api/corporativos/${horizonteId}/desarrollos/${alameda.id}/importar`;
    // Torre A and Torre B are full (16 × 8 and 15 × 8); a new tower of 2 levels × 4 takes units.
    await rt.deps.store.append(`cluster:${horizonteId}:clu-torre-c`, 0, [
      {
        id: rt.deps.newId(),
        type: 'ClusterAdded',
        data: {
          cluster: {
            id: 'clu-torre-c',
            idDesarrollo: alameda.id,
            nombre: 'Torre C',
            niveles: 2,
            unidadesPorNivel: 4,
          },
        },
        corporateId: horizonteId,
        actorId: 'test',
        occurredAt: new Date(),
      },
    ]);
    const clustersUrl = `/api/wsObtenerClusters?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}`;
    const before = (await admin.get(clustersUrl)).json;
    const count = (cl: { unidades: unknown[] }[]) => cl.reduce((n, c) => n + c.unidades.length, 0);
    const header =
      'tipo,clave,cluster,prototipo,nivel,posicion,status,precio,recamaras,banios,baniosMedios,cajones,areaTotal';
    const bad = [
      header,
      'prototipo,Loft Nuevo,,,,,,3100000,1,1,0,1,55',
      'unidad,A1701,Torre A,Loft Nuevo,17,1,Disponible,3200000,,,,,',
      'unidad,Z101,Torre Z,Loft Nuevo,1,1,Disponible,3200000,,,,,',
      'unidad,A1702,Torre A,Loft Nuevo,17,2,Regalado,-5,,,,,',
      // A place beyond the tower's 4 per level, one already taken, and one taken twice.
      'unidad,C105,Torre C,Loft Nuevo,1,5,Disponible,3200000,,,,,',
      'unidad,A101X,Torre A,Loft Nuevo,1,1,Disponible,3200000,,,,,',
      'unidad,C101,Torre C,Loft Nuevo,1,1,Disponible,3200000,,,,,',
      'unidad,C101B,Torre C,Loft Nuevo,1,1,Disponible,3200000,,,,,',
    ].join('\n');
    const rejected = await admin.post(path, bad);
    expect(rejected.status).toBe(400);
    expect(rejected.json[0].errorCode).toBe('IMPORT_INVALID');
    expect(rejected.json[0].message).toBe('El archivo tiene 6 errores; no se importó nada');
    const errores = rejected.json[0].errores as { linea: number; motivo: string }[];
    expect(errores.map((e) => e.linea)).toEqual([3, 4, 5, 6, 7, 9]);
    expect(errores[0]!.motivo).toBe('nivel 17 mayor que los 16 niveles de Torre A');
    expect(errores[1]!.motivo).toBe("el cluster 'Torre Z' no existe");
    expect(errores[2]!.motivo).toContain("el estatus 'Regalado' no es válido");
    expect(errores[2]!.motivo).toContain('precio: debe ser mayor o igual a 0');
    expect(errores[3]!.motivo).toBe('posición 5 mayor que las 4 unidades por nivel de Torre C');
    expect(errores[4]!.motivo).toMatch(/^el nivel 1, posición 1 de Torre A ya es de la unidad /);
    expect(errores[5]!.motivo).toBe('el nivel 1, posición 1 de Torre C ya es de la unidad C101');
    expect(count((await admin.get(clustersUrl)).json)).toBe(count(before));
    expect(
      (
        await admin.get(
          `/api/wsObtenerPrototipos?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}`,
        )
      ).json.map((p: { nombre: string }) => p.nombre),
    ).not.toContain('Loft Nuevo');

    // The same reasons in the caller's language, with a singular for one error.
    const english = await admin.post(path, [header, bad.split('\n')[3]].join('\n'), {
      'accept-language': 'en',
    });
    expect(english.json[0].message).toBe('The file has 1 error; nothing was imported');
    expect(english.json[0].errores[0].motivo).toBe(
      "cluster 'Torre Z' does not exist; prototype 'Loft Nuevo' does not exist",
    );
    // Problems of the file itself: missing columns once, not per row; a ragged row; no rows.
    const noColumns = await admin.post(path, 'tipo,clave\nunidad,X1');
    expect(noColumns.json[0].errores).toEqual([
      {
        linea: 1,
        motivo: 'Faltan las columnas: precio, cluster, prototipo, nivel, posicion, status',
      },
    ]);
    const ragged = await admin.post(path, `${header}\nunidad,X1,Torre C`);
    expect(ragged.json[0].errores).toEqual([
      { linea: 2, motivo: 'La fila tiene 3 columnas y el encabezado 13' },
    ]);
    const empty = await admin.post(path, header, { 'accept-language': 'en' });
    expect(empty.json[0].errores).toEqual([{ linea: 1, motivo: 'The file has no rows' }]);
    const badType = await admin.post(path, `${header}\ncasa,X1,,,,,,1,,,,,`);
    expect(badType.json[0].errores[0].motivo).toBe("tipo: debe ser 'prototipo' o 'unidad'");

    const good = [
      header,
      'prototipo,Loft Nuevo,,,,,,3100000,1,1,0,1,55',
      'unidad,C101,Torre C,Loft Nuevo,1,1,Disponible,3200000,,,,,',
      'unidad,C204,Torre C,Loft Nuevo,2,4,Disponible,3300000,,,,,',
    ].join('\n');
    const imported = await admin.post(path, good);
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    expect(count((await admin.get(clustersUrl)).json)).toBe(count(before) + 2);
    expect((await asesor.post(path, good)).status).toBe(403);
  });

  it('streams a unit change to a member within a second, and nothing to another corporate', async () => {
    const clusters = (
      await admin.get(
        `/api/wsObtenerClusters?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}`,
      )
    ).json;
    const unit: Unit = clusters[1].unidades.find((u: Unit) => u.status === 'Disponible');
    const open = async (cookie: string) => {
      const res = await app.request('/api/stream', { headers: { cookie } });
      return res.body!.getReader();
    };
    const mine = await open(await login(app, 'asesor@vitrina.demo'));
    const other = await open(await login(app, 'asesor.pacifico@vitrina.demo'));
    const decoder = new TextDecoder();
    const readUntil = async (
      reader: ReadableStreamDefaultReader<Uint8Array>,
      needle: string,
      ms: number,
    ) => {
      let text = '';
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const chunk = await Promise.race([
          reader.read(),
          new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
        ]);
        if (!chunk || chunk.done) break;
        text += decoder.decode(chunk.value);
        if (text.includes(needle)) return text;
      }
      return text;
    };
    await readUntil(mine, 'ready', 2000);
    await readUntil(other, 'ready', 2000);
    const started = Date.now();
    await admin.put(`/api/corporativos/${horizonteId}/unidades/${unit.id}/status`, {
      status: 'Vendido',
      statusAnterior: unit.status,
    });
    const got = await readUntil(mine, unit.id, 1000);
    expect(got).toContain('"status":"Vendido"');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await readUntil(other, unit.id, 300)).not.toContain(unit.id);
    await mine.cancel();
    await other.cancel();
  });

  it('protects the headers and refuses oversized or poisoned bodies without writing', async () => {
    const res = await app.request('/api/wsObtenerConfiguracionesGenerales');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect(res.headers.get('content-type')).toContain('charset');
    const big = await admin.put(`/api/corporativos/${horizonteId}/unidades/x/precio`, {
      precio: 1,
      precioAnterior: 1,
      pad: 'x'.repeat(1_100_000),
    });
    expect(big.status).toBe(413);
    const proto = await app.request(`/api/corporativos/${horizonteId}/unidades/x/precio`, {
      method: 'PUT',
      headers: {
        cookie: await login(app, 'admin@vitrina.demo'),
        'content-type': 'application/json',
      },
      body: '{"__proto__": {"admin": true}, "precio": 1}',
    });
    expect(proto.status).toBe(400);
  });
});
