/**
 * The lead pickers search the server (issue 21): the quotation's client and the unit hold's
 * client send `leadPickerParams` to `wsObtenerLeads` as the user types. With more than one page
 * of leads (500), a lead beyond the first page is found by its name, its e-mail or its phone,
 * through that very call; an adviser's search never answers another adviser's lead (the server
 * keeps the scope), a manager's answers both; the pinned client is read by id wherever it stands.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Lead } from '../../src/core/lead';
import { createApp } from '../../src/server/app';
import { recountLeadCounts } from '../../src/server/leads/projection';
import { LEADS_PAGE_MAX } from '../../src/server/leads/queries';
import { apiUrl } from '../../src/ui/lib/api';
import { LEAD_PICKER_LIMIT, leadPickerParams } from '../../src/ui/lib/lead-search';
import { insertLeadRows } from '../support/lead-rows';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { signedIn } from './support/http';

type Client = Awaited<ReturnType<typeof signedIn>>;

/** More leads than one page holds, all newer than the lead looked for. */
const NEWER = LEADS_PAGE_MAX + 40;

describeBackends('lead pickers search every lead on the server', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let asesor: Client;
  let gerente: Client;
  let corp: string;
  let far: Lead;
  let others: Lead;
  const ids: Record<string, string> = {};

  /** Exactly the request a picker sends for `text`. */
  const pick = async (who: Client, text: string) => {
    const res = await who.get(apiUrl('wsObtenerLeads', leadPickerParams(corp, text)));
    expect(res.status).toBe(200);
    return res.json as Lead[];
  };
  const names = (leads: Lead[]) => leads.map((l) => `${l.nombre} ${l.apellidos}`);

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    await signedIn(app, 'asesor2@vitrina.demo', ids);
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    const created = await asesor.post(`/api/corporativos/${corp}/leads`, {
      nombre: 'Zacarías',
      apellidos: 'Lejano Picker',
      email: 'zacarias.lejano@example.com',
      telefono: '+52 55 4242 7788',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    far = created.json as Lead;
    const other = await gerente.post(`/api/corporativos/${corp}/leads`, {
      nombre: 'Zacarías',
      apellidos: 'Ajeno Picker',
      email: 'zacarias.ajeno@example.com',
      idVendedor: ids['asesor2@vitrina.demo'],
    });
    expect(other.status, JSON.stringify(other.json)).toBe(201);
    others = other.json as Lead;

    // The adviser's newer leads, written straight into the read model as the large seed does
    // (then recounted): hundreds of creates through the API would only slow the test.
    await insertLeadRows(
      rt.deps.db,
      Array.from({ length: NEWER }, (_, i) => ({
        ...far,
        id: `picker-${String(i).padStart(4, '0')}`,
        nombre: `Reciente ${i}`,
        apellidos: 'Picker',
        email: `reciente${i}@example.com`,
        telefono: '',
        celular: '',
        fechaAlta: far.fechaAlta + 1 + i,
      })),
    );
    await recountLeadCounts(rt.deps.db, corp);
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  it('leaves the far lead off the first page of the list and of the blank picker', async () => {
    const page = await asesor.get(`/api/wsObtenerLeads?idCorporativo=${corp}`);
    expect(page.status).toBe(200);
    expect(page.json).toHaveLength(LEADS_PAGE_MAX);
    expect((page.json as Lead[]).map((l) => l.id)).not.toContain(far.id);
    expect(Number(page.headers.get('x-total-count'))).toBeGreaterThan(LEADS_PAGE_MAX);

    const blank = await pick(asesor, '   ');
    expect(blank).toHaveLength(LEAD_PICKER_LIMIT);
    expect(blank[0]!.nombre).toBe(`Reciente ${NEWER - 1}`);
    expect(blank.map((l) => l.id)).not.toContain(far.id);
  });

  it('finds the far lead by name, surname, e-mail and phone, accents and case ignored', async () => {
    for (const text of ['Zacarías', 'zacarias lej', 'LEJANO', 'zacarias.lejano@', '55 4242']) {
      const found = await pick(asesor, text);
      expect(
        found.map((l) => l.id),
        text,
      ).toEqual([far.id]);
    }
    expect(await pick(asesor, 'zacarias.nadie')).toEqual([]);
  });

  it("answers an adviser only their own leads, a manager everyone's; a lead is read by id in scope", async () => {
    expect(names(await pick(asesor, 'zacarías'))).toEqual(['Zacarías Lejano Picker']);
    expect(names(await pick(gerente, 'zacarías')).sort()).toEqual([
      'Zacarías Ajeno Picker',
      'Zacarías Lejano Picker',
    ]);
    expect(await pick(asesor, 'zacarias.ajeno')).toEqual([]);

    // The pinned client's read (leadByIdQuery): the far lead for its adviser, 404 out of scope.
    const byId = await asesor.get(`/api/corporativos/${corp}/leads/${far.id}`);
    expect(byId.status).toBe(200);
    expect((byId.json as Lead).id).toBe(far.id);
    expect((await asesor.get(`/api/corporativos/${corp}/leads/${others.id}`)).status).toBe(404);
  });
});
