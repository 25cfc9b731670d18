import { expect, test, type Browser, type Page } from '@playwright/test';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const CLIENTS = `/corporativos/${CORP}/clientes`;
const WALK_IN = `/corporativos/${CORP}/desarrollos/torre-alameda/registro-clientes`;
const SHOTS = 'tests/e2e/__screenshots__';
const DESKTOP = { width: 1366, height: 900 };
const TABLET = { width: 1024, height: 768 };

async function signIn(page: Page, email: string, path: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(path)}`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(path);
}

async function newPage(browser: Browser, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  return context.newPage();
}

/** The lead id of the detail page the browser shows. */
function leadIdOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
}

test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const walkIn = {
  nombre: 'Lucía',
  apellidos: `Mostrador ${stamp}`,
  email: `lucia.${stamp}@example.com`,
  telefono: '55 4321 8765',
};
let walkInId = '';
let managerLeadId = '';
let adviserName = '';

test('the adviser registers a walk-in at the showroom on a tablet; nothing is sent until valid', async ({
  browser,
}) => {
  const page = await newPage(browser, TABLET);
  await signIn(page, 'asesor@vitrina.demo', WALK_IN);
  adviserName = await page.evaluate(async () => {
    const me = (await (await fetch('/api/auth/session')).json()) as {
      nombre: string;
      apellidos: string;
    };
    return `${me.nombre} ${me.apellidos}`.trim();
  });
  const nav = page.getByRole('navigation', { name: 'Secciones del desarrollo' });
  await expect(nav.getByRole('link', { name: 'Registro de clientes' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const form = page.getByRole('form', { name: 'Registro de cliente' });
  await expect(form.getByLabel('Medio de contacto')).toHaveValue('Showroom');
  await expect(form.getByLabel('Desarrollo de interés')).toHaveValue(/.+/);

  // Large touch targets for tablets: 56 px fields and submit button.
  const box = await form.getByLabel('Nombre', { exact: true }).boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(56);
  const submitBox = await form.getByRole('button', { name: 'Registrar cliente' }).boundingBox();
  expect(submitBox!.height).toBeGreaterThanOrEqual(56);

  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/leads')) posts.push(r.url());
  });

  // Empty name and a malformed email and phone: errors next to the fields, nothing sent.
  await form.getByLabel('Correo electrónico').fill('lucia@');
  await form.getByLabel('Teléfono').fill('12ab');
  await form.getByRole('button', { name: 'Registrar cliente' }).click();
  const name = form.getByLabel('Nombre', { exact: true });
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  const nameError = await name.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${nameError}"]`)).toHaveText('El nombre es obligatorio.');
  await expect(
    form.getByText('Escribe un correo válido, por ejemplo nombre@dominio.com.'),
  ).toBeVisible();
  await expect(form.getByText('Escribe un teléfono válido de 7 a 15 dígitos.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/leads-registro-errors-tablet.png`, fullPage: true });
  expect(posts).toEqual([]);

  await name.fill(walkIn.nombre);
  await form.getByLabel('Apellidos').fill(walkIn.apellidos);
  await form.getByLabel('Correo electrónico').fill(walkIn.email);
  await form.getByLabel('Teléfono').fill(walkIn.telefono);
  await expect(page.getByText('El nombre es obligatorio.')).toHaveCount(0);
  await form.getByRole('button', { name: 'Registrar cliente' }).click();

  const success = page.getByTestId('walk-in-success');
  await expect(success).toContainText(`${walkIn.nombre} ${walkIn.apellidos} quedó registrado.`);
  expect(posts).toHaveLength(1);
  await expect(success).toContainText('Lo encontrarás en Mis clientes.');
  await expect(page.getByRole('button', { name: 'Registrar otro' })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/leads-registro-success-tablet.png`, fullPage: true });

  // Register another: an empty form again, channel back to Showroom.
  await page.getByRole('button', { name: 'Registrar otro' }).click();
  await expect(form.getByLabel('Nombre', { exact: true })).toHaveValue('');
  await expect(form.getByLabel('Medio de contacto')).toHaveValue('Showroom');
  await page.screenshot({ path: `${SHOTS}/leads-registro-tablet.png`, fullPage: true });

  // The same email again: one of the adviser's own clients, with a link to it; nothing created.
  await form.getByLabel('Nombre', { exact: true }).fill('Lucía otra vez');
  await form.getByLabel('Correo electrónico').fill(walkIn.email.toUpperCase());
  await form.getByRole('button', { name: 'Registrar cliente' }).click();
  const notice = page.getByTestId('duplicate-notice');
  await expect(notice).toContainText('Esta persona ya es uno de tus clientes.');
  await expect(notice).not.toContainText('lo atiende');
  await notice.getByRole('link', { name: 'Ver cliente' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/leads-registro-duplicate-own-tablet.png` });
  await notice.getByRole('link', { name: 'Ver cliente' }).click();
  await expect(
    page.getByRole('heading', { name: `${walkIn.nombre} ${walkIn.apellidos}` }),
  ).toBeVisible();
  expect(posts).toHaveLength(2);
  await page.context().close();

  // Another adviser learns only who looks after the person: no link to a lead they cannot see.
  const other = await newPage(browser, TABLET);
  await signIn(other, 'asesor2@vitrina.demo', WALK_IN);
  const otherForm = other.getByRole('form', { name: 'Registro de cliente' });
  await otherForm.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await otherForm.getByLabel('Teléfono').fill(`+52 ${walkIn.telefono}`);
  await otherForm.getByRole('button', { name: 'Registrar cliente' }).click();
  const otherNotice = other.getByTestId('duplicate-notice');
  await expect(otherNotice).toContainText(
    `Este cliente ya está registrado; lo atiende ${adviserName}.`,
  );
  await expect(otherNotice.getByRole('link')).toHaveCount(0);
  await other.context().close();
});

test('the adviser adds and deletes a note, edits the lead and sees the change in the history', async ({
  browser,
}) => {
  const page = await newPage(browser);
  await signIn(page, 'asesor@vitrina.demo', CLIENTS);
  await expect(page.getByTestId('lead-total')).toHaveText(/^\d+ clientes?$/);
  await page.getByRole('searchbox').fill(walkIn.apellidos);
  const row = page.getByTestId('lead-row').filter({ hasText: walkIn.apellidos });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('lead-total')).toHaveText('1 cliente');
  await row.click();
  await expect(
    page.getByRole('heading', { name: `${walkIn.nombre} ${walkIn.apellidos}` }),
  ).toBeVisible();
  walkInId = leadIdOf(page);
  await expect(page.getByTestId('lead-owner')).toHaveText('Tú');

  // Notes: newest first; a deleted note disappears.
  const notes = page.getByRole('region', { name: 'Notas de seguimiento' });
  await notes.getByRole('button', { name: 'Agregar nota' }).click();
  await expect(notes.getByText('Escribe la nota antes de agregarla.')).toBeVisible();
  await notes.getByLabel('Nueva nota').fill('Le interesa un departamento de 2 recámaras');
  await notes.getByRole('button', { name: 'Agregar nota' }).click();
  await expect(notes.getByTestId('lead-note')).toHaveCount(1);
  await notes.getByLabel('Nueva nota').fill('Llamar el lunes para agendar visita');
  await notes.getByRole('button', { name: 'Agregar nota' }).click();
  await expect(notes.getByTestId('lead-note')).toHaveCount(2);
  await expect(notes.getByTestId('lead-note').first()).toContainText('Llamar el lunes');
  await notes
    .getByRole('button', { name: 'Eliminar la nota «Llamar el lunes para agendar visita»' })
    .click();
  // Deleting asks first (issue 19): cancel keeps the note, confirming deletes it.
  const confirm = notes.getByTestId('note-delete-confirm');
  await expect(confirm).toContainText('¿Eliminar esta nota? No se puede deshacer.');
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(notes.getByTestId('lead-note')).toHaveCount(2);
  await notes
    .getByRole('button', { name: 'Eliminar la nota «Llamar el lunes para agendar visita»' })
    .click();
  await notes.getByRole('button', { name: 'Sí, eliminar' }).click();
  await expect(notes.getByTestId('lead-note')).toHaveCount(1);
  await expect(notes.getByText('Llamar el lunes')).toHaveCount(0);
  await page.reload();
  await expect(notes.getByTestId('lead-note')).toHaveCount(1);
  await expect(notes.getByTestId('lead-note')).toContainText('2 recámaras');

  // WhatsApp needs the country code: the national phone as written gets Mexico's 52.
  await expect(page.getByRole('link', { name: 'Escribir por WhatsApp' })).toHaveAttribute(
    'href',
    /^https:\/\/wa\.me\/525543218765\?text=/,
  );

  // Edit: status and mobile; a bad phone is refused next to the field first.
  const editor = page.getByRole('region', { name: 'Datos del cliente' });
  await editor.getByLabel('Celular').fill('55-12');
  await editor.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(editor.getByText('Escribe un teléfono válido de 7 a 15 dígitos.')).toBeVisible();
  await editor.getByLabel('Celular').fill('+52 55 9876 5432');
  await editor.getByLabel('Estatus').selectOption({ label: 'Contactado' });
  await editor.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Los cambios se guardaron.')).toBeVisible();

  const history = page.getByRole('region', { name: 'Historial de cambios' });
  await expect(history.getByText('Estatus: Nuevo → Contactado')).toBeVisible();
  await expect(history.getByText('Celular: (vacío) → +52 55 9876 5432')).toBeVisible();
  await expect(history.getByTestId('lead-history-entry').first()).toContainText(adviserName);
  // The list row follows the edit without a reload.
  await expect(page.getByTestId('lead-row').filter({ hasText: walkIn.apellidos })).toContainText(
    'Contactado',
  );
  // The mobile saved with +52 is found by its national number, spaced or not.
  for (const typed of ['55 9876 5432', '5598765432']) {
    await page.getByRole('searchbox').fill(typed);
    await expect(page.getByTestId('lead-total')).toHaveText('1 cliente');
    await expect(page.getByTestId('lead-row').filter({ hasText: walkIn.apellidos })).toHaveCount(1);
  }
  await page.screenshot({ path: `${SHOTS}/leads-search-national-phone.png` });

  // WhatsApp link from the corporate's prospecto template; pin stored under lead-id.
  const wa = page.getByRole('link', { name: 'Escribir por WhatsApp' });
  const href = (await wa.getAttribute('href'))!;
  expect(href.startsWith('https://wa.me/525598765432?text=')).toBe(true);
  expect(decodeURIComponent(href.split('text=')[1]!)).toBe(
    `Hola ${walkIn.nombre}, soy ${adviserName} de Grupo Horizonte. Te comparto la información de Torre Alameda.`,
  );
  await page.getByRole('button', { name: 'Fijar cliente' }).click();
  await expect(page.getByRole('button', { name: 'Quitar fijado' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(await page.evaluate(() => localStorage.getItem('lead-id'))).toBe(walkInId);
  await page.screenshot({ path: `${SHOTS}/leads-detail-asesor.png`, fullPage: true });

  // A stale edit: someone saves meanwhile; the editor shows the stored version, then reapplies.
  await editor.getByLabel('Tipo').selectOption('Inversionista');
  const changed = await page.request.put(
    `/api/corporativos/${await corporateId(page)}/leads/${walkInId}`,
    {
      data: { apellidos: `${walkIn.apellidos} B`, leadAnterior: { apellidos: walkIn.apellidos } },
    },
  );
  expect(changed.status()).toBe(200);
  await editor.getByRole('button', { name: 'Guardar cambios' }).click();
  const conflict = editor.getByTestId('lead-conflict');
  await expect(conflict).toContainText('Este cliente cambió mientras lo editabas.');
  await expect(conflict.getByRole('row', { name: /Apellidos/ })).toContainText(
    `${walkIn.apellidos} B`,
  );
  await expect(conflict.getByRole('row', { name: /Tipo/ })).toContainText('Inversionista');
  await expect(conflict.getByRole('row', { name: /Apellidos/ })).toContainText('(sin cambios)');
  await conflict.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/leads-conflict.png` });
  await conflict
    .getByRole('button', { name: 'Aplicar mis cambios sobre la versión actual' })
    .click();
  await expect(conflict).toHaveCount(0);
  await expect(editor.getByLabel('Apellidos')).toHaveValue(`${walkIn.apellidos} B`);
  await expect(editor.getByLabel('Tipo')).toHaveValue('Inversionista');
  await expect(history.getByText('Tipo: (vacío) → Inversionista')).toBeVisible();
  await page.context().close();
});

async function corporateId(page: Page): Promise<string> {
  return page.evaluate(async (slug) => {
    const res = await fetch(`/api/wsObtenerCorporativo?slug=${slug}`);
    return ((await res.json()) as { id: string }).id;
  }, CORP);
}

test('a lead registered while the live stream was down shows up, and counts, once it reconnects', async ({
  browser,
}) => {
  const page = await newPage(browser);
  // The first connection says `ready` and ends, as a dropped stream does; every attempt after it
  // fails until the stream is back up, then the real stream answers.
  let stream: 'once' | 'down' | 'up' = 'once';
  await page.route('**/api/stream', (route) => {
    if (stream === 'up') return route.continue();
    if (stream === 'down') return route.abort('internetdisconnected');
    stream = 'down';
    return route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: 'retry: 500\nevent: ready\ndata: {}\n\n',
    });
  });
  await signIn(page, 'asesor@vitrina.demo', CLIENTS);
  const total = page.getByTestId('lead-total');
  await expect(total).toHaveText(/^\d+ clientes?$/);
  const before = Number((await total.textContent())!.split(' ')[0]);
  const plural = (n: number) => (n === 1 ? '1 cliente' : `${n} clientes`);
  const corpId = await corporateId(page);
  const register = async (nombre: string) => {
    const res = await page.request.post(`/api/corporativos/${corpId}/leads`, {
      data: { nombre, apellidos: `En vivo ${stamp}` },
    });
    expect(res.status()).toBe(201);
  };
  const row = (nombre: string) =>
    page.getByTestId('lead-row').filter({ hasText: `${nombre} En vivo ${stamp}` });

  // Registered while the stream is down: its change reaches no one.
  await expect.poll(() => stream).toBe('down');
  await register('Durante');
  await page.waitForTimeout(2500);
  await expect(row('Durante')).toHaveCount(0);
  await expect(total).toHaveText(plural(before));

  // Back up: the reconnection reads the list and its total again.
  stream = 'up';
  await expect(row('Durante')).toHaveCount(1, { timeout: 15_000 });
  await expect(total).toHaveText(plural(before + 1));

  // Connected again, a change arrives live: the row and the total follow without a reload.
  await register('Después');
  await expect(row('Después')).toHaveCount(1);
  await expect(total).toHaveText(plural(before + 2));
  await page.screenshot({ path: `${SHOTS}/leads-list-reconnected.png` });
  await page.context().close();
});

test("the manager sees the adviser's lead; the adviser does not see the manager's", async ({
  browser,
}) => {
  const manager = await newPage(browser);
  await signIn(manager, 'gerente@vitrina.demo', CLIENTS);
  // The manager registers a client of their own through the UI.
  await manager.getByRole('button', { name: 'Nuevo cliente' }).click();
  const dialog = manager.getByRole('dialog', { name: 'Registrar cliente' });
  await dialog.getByLabel('Nombre', { exact: true }).fill('Rodrigo');
  await dialog.getByLabel('Apellidos').fill(`Gerencia ${stamp}`);
  await dialog.getByLabel('Correo electrónico').fill(`rodrigo.${stamp}@example.com`);
  await dialog.getByRole('button', { name: 'Registrar cliente' }).click();
  await expect(manager.getByRole('heading', { name: `Rodrigo Gerencia ${stamp}` })).toBeVisible();
  managerLeadId = leadIdOf(manager);

  // The adviser's lead is in the manager's list, with its owner, and opens.
  await expect(manager.getByLabel('Asesor', { exact: true })).toBeVisible();
  await manager.getByRole('searchbox').fill(walkIn.nombre);
  const row = manager.getByTestId('lead-row').filter({ hasText: walkIn.apellidos });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(adviserName);
  await manager.getByLabel('Asesor', { exact: true }).selectOption({ label: adviserName });
  await expect(row).toHaveCount(1);
  await manager.getByRole('searchbox').fill(walkIn.apellidos);
  await expect(manager.getByTestId('lead-total')).toHaveText('1 cliente');
  await expect(row).toHaveCount(1);
  await row.click();
  await expect(manager.getByTestId('lead-owner')).toHaveText(adviserName);
  await expect(manager.getByLabel('Reasignar a')).toBeVisible();
  // The adviser's note says who wrote it, by name, as the history does.
  await expect(manager.getByTestId('lead-note-author').first()).toHaveText(adviserName);
  await manager.screenshot({ path: `${SHOTS}/leads-list-gerente.png`, fullPage: true });

  // At 1440 px, in both languages, the three filters show their whole "all" labels and each row
  // its owner's whole name.
  await manager.setViewportSize({ width: 1440, height: 900 });
  await manager.goto(CLIENTS);
  const fits = () =>
    manager.evaluate(() => {
      const canvas = document.createElement('canvas').getContext('2d')!;
      const selects = [...document.querySelectorAll<HTMLSelectElement>('[role=search] select')];
      const owners = [...document.querySelectorAll<HTMLElement>('[data-testid=lead-row-owner]')];
      return {
        filters: selects.map((select) => {
          const style = getComputedStyle(select);
          canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const text = select.selectedOptions[0]!.text;
          // The native arrow takes about 20 px of the content box.
          const room =
            select.clientWidth -
            parseFloat(style.paddingLeft) -
            parseFloat(style.paddingRight) -
            20;
          return { text, fits: canvas.measureText(text).width <= room };
        }),
        owners: owners.map((o) => ({ text: o.textContent, cut: o.scrollWidth > o.clientWidth })),
      };
    });
  // Owners' names arrive with the users list, which may come after the rows (a page served by
  // the service worker renders its rows sooner): measure once the adviser's name is there.
  await expect(
    manager.getByTestId('lead-row-owner').filter({ hasText: adviserName }).first(),
  ).toBeVisible();
  const es = await fits();
  expect(es.filters).toEqual([
    { text: 'Todos los estatus', fits: true },
    { text: 'Todos los desarrollos', fits: true },
    { text: 'Todos los asesores', fits: true },
  ]);
  expect(es.owners.length).toBeGreaterThan(0);
  expect(es.owners.filter((o) => o.cut)).toEqual([]);
  expect(es.owners.map((o) => o.text)).toContain(`Asesor: ${adviserName}`);
  await manager.screenshot({ path: `${SHOTS}/leads-list-gerente-1440-es.png` });
  await manager.getByTestId('language-toggle').click();
  await expect(manager.getByRole('searchbox')).toHaveAttribute(
    'placeholder',
    'Search by name, email or phone',
  );
  const en = await fits();
  expect(en.filters.map((f) => f.fits)).toEqual([true, true, true]);
  expect(en.filters[1]!.text).toBe('All developments');
  expect(en.owners.filter((o) => o.cut)).toEqual([]);
  await manager.screenshot({ path: `${SHOTS}/leads-list-gerente-1440-en.png` });
  await manager.getByTestId('language-toggle').click();
  await manager.context().close();

  const adviser = await newPage(browser);
  await signIn(adviser, 'asesor@vitrina.demo', CLIENTS);
  await expect(adviser.getByTestId('lead-row').filter({ hasText: walkIn.apellidos })).toHaveCount(
    1,
  );
  // No adviser filter for Propios, and the manager's lead is nowhere.
  await expect(adviser.getByLabel('Asesor', { exact: true })).toHaveCount(0);
  await adviser.getByRole('searchbox').fill(`Gerencia ${stamp}`);
  await expect(
    adviser.getByText('Ningún cliente coincide con la búsqueda o los filtros.'),
  ).toBeVisible();
  await expect(adviser.getByTestId('lead-row')).toHaveCount(0);
  await expect(adviser.getByTestId('lead-total')).toHaveText('0 clientes');
  await adviser.screenshot({ path: `${SHOTS}/leads-list-asesor.png`, fullPage: true });
  await adviser.goto(`${CLIENTS}/${managerLeadId}`);
  await expect(
    adviser.getByText('No encontramos este cliente o no tienes acceso a él.'),
  ).toBeVisible();
  await adviser.context().close();
});

test('the clients page is "Clientes" for the manager, who sees every adviser’s clients, and "Mis clientes" for the adviser: heading, top bar, sidebar and document title, in both languages', async ({
  browser,
}) => {
  const expectTitles = async (page: Page, own: string, app: string) => {
    await expect(page.locator('#clients-title')).toHaveText(own);
    await expect(page.getByTestId('page-title')).toHaveText(`${app} | Grupo Horizonte`);
    await expect(page).toHaveTitle(`${app} – Grupo Horizonte – Vitrina`);
    // The sidebar's item says the same; it is the current page.
    const nav = page.getByRole('navigation', { name: /Navegación principal|Main navigation/ });
    await expect(nav.getByRole('link', { name: own, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  };
  const manager = await newPage(browser);
  await signIn(manager, 'gerente@vitrina.demo', CLIENTS);
  await expectTitles(manager, 'Clientes', 'Clientes');
  await manager.getByTestId('language-toggle').click();
  await expectTitles(manager, 'Clients', 'Clients');
  await manager.getByTestId('language-toggle').click();
  await expectTitles(manager, 'Clientes', 'Clientes');
  await manager.context().close();

  // The adviser's list is theirs: the corporate's name for it, "Mis clientes" in the demo.
  const adviser = await newPage(browser);
  await signIn(adviser, 'asesor@vitrina.demo', CLIENTS);
  await expectTitles(adviser, 'Mis clientes', 'Mis clientes');
  await adviser.getByTestId('language-toggle').click();
  await expectTitles(adviser, 'My clients', 'My clients');
  await adviser.getByTestId('language-toggle').click();
  await expectTitles(adviser, 'Mis clientes', 'Mis clientes');
  await adviser.context().close();
});

test('a lead deleted in another tab: saving says so and locks the form, and so does a live deletion', async ({
  browser,
}) => {
  const page = await newPage(browser);
  // No live stream in this tab: the deletion is learnt only when saving.
  await page.route('**/api/stream', (route) => route.abort('internetdisconnected'));
  await signIn(page, 'asesor@vitrina.demo', CLIENTS);
  const corpId = await corporateId(page);
  const register = async (on: Page, nombre: string) => {
    const res = await on.request.post(`/api/corporativos/${corpId}/leads`, {
      data: { nombre, apellidos: `Borrado ${stamp}` },
    });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const first = await register(page, 'Primero');
  await page.goto(`${CLIENTS}/${first}`);
  const editor = page.getByRole('region', { name: 'Datos del cliente' });
  await editor.getByLabel('Tipo').selectOption('Inversionista');
  // Another tab deletes it.
  expect((await page.request.delete(`/api/corporativos/${corpId}/leads/${first}`)).status()).toBe(
    200,
  );
  await editor.getByRole('button', { name: 'Guardar cambios' }).click();
  const gone = page.getByTestId('lead-gone');
  await expect(gone).toContainText('Este cliente fue eliminado.');
  await expect(gone).toBeFocused();
  await expect(gone).toBeInViewport();
  await expect(page.getByText('No se encontró el recurso')).toHaveCount(0);
  await expect(editor.getByLabel('Tipo')).toBeDisabled();
  await expect(editor.getByLabel('Tipo')).toHaveValue('Inversionista');
  await expect(editor.getByRole('button', { name: 'Guardar cambios' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Eliminar cliente' })).toHaveCount(0);
  await expect(page.getByLabel('Nueva nota')).toHaveCount(0);
  await expect(
    page.getByTestId('lead-row').filter({ hasText: `Primero Borrado ${stamp}` }),
  ).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/leads-edit-deleted.png` });
  await gone.getByRole('link', { name: 'Volver a la lista' }).click();
  await expect(page).toHaveURL(CLIENTS);
  await page.context().close();

  // With the live stream, the open lead says it was deleted as soon as it happens.
  const live = await newPage(browser);
  await signIn(live, 'asesor@vitrina.demo', CLIENTS);
  const second = await register(live, 'Segundo');
  await live.goto(`${CLIENTS}/${second}`);
  await expect(live.getByRole('heading', { name: `Segundo Borrado ${stamp}` })).toBeVisible();
  await expect(live.getByTestId('lead-gone')).toHaveCount(0);
  await live.waitForTimeout(500);
  expect((await live.request.delete(`/api/corporativos/${corpId}/leads/${second}`)).status()).toBe(
    200,
  );
  await expect(live.getByTestId('lead-gone')).toContainText('Este cliente fue eliminado.');
  await expect(
    live.getByRole('region', { name: 'Datos del cliente' }).getByLabel('Nombre', { exact: true }),
  ).toBeDisabled();
  await live.context().close();
});

test('a double click on "Agregar nota" adds one note', async ({ browser }) => {
  const page = await newPage(browser);
  await signIn(page, 'asesor@vitrina.demo', CLIENTS);
  const corpId = await corporateId(page);
  const res = await page.request.post(`/api/corporativos/${corpId}/leads`, {
    data: { nombre: 'Doble', apellidos: `Clic ${stamp}` },
  });
  expect(res.status()).toBe(201);
  const leadId = ((await res.json()) as { id: string }).id;
  // The note takes a moment to save, so the second click lands while it is being saved.
  const posts: string[] = [];
  await page.route('**/notas', async (route) => {
    if (route.request().method() === 'POST') {
      posts.push(route.request().url());
      await new Promise((r) => setTimeout(r, 400));
    }
    await route.continue();
  });
  await page.goto(`${CLIENTS}/${leadId}`);
  const notes = page.getByRole('region', { name: 'Notas de seguimiento' });
  await expect(notes.getByText('Sin notas todavía.')).toBeVisible();
  await notes.getByLabel('Nueva nota').fill('Una sola nota');
  await notes.getByRole('button', { name: 'Agregar nota' }).dblclick();
  await expect(notes.getByTestId('lead-note')).toHaveCount(1);
  await expect(notes.getByLabel('Nueva nota')).toHaveValue('');
  // Nothing more arrives later, and the server has exactly one.
  await page.waitForTimeout(800);
  expect(posts).toHaveLength(1);
  const stored = await page.request.get(`/api/corporativos/${corpId}/leads/${leadId}/notas`);
  expect(((await stored.json()) as { nota: string }[]).map((n) => n.nota)).toEqual([
    'Una sola nota',
  ]);
  await page.reload();
  await expect(notes.getByTestId('lead-note')).toHaveCount(1);
  await page.context().close();
});

test("the hostess's success screen points to what her menu offers", async ({ browser }) => {
  const page = await newPage(browser, TABLET);
  await signIn(page, 'hostess@vitrina.demo', WALK_IN);
  const nav = page.getByRole('navigation', { name: 'Navegación principal' });
  await expect(nav.getByRole('link', { name: 'Mis clientes' })).toHaveCount(0);
  const form = page.getByRole('form', { name: 'Registro de cliente' });
  await form.getByLabel('Nombre', { exact: true }).fill('Visita');
  await form.getByLabel('Apellidos').fill(`Hostess ${stamp}`);
  await form.getByLabel('Correo electrónico').fill(`visita.${stamp}@example.com`);
  await form.getByRole('button', { name: 'Registrar cliente' }).click();
  const success = page.getByTestId('walk-in-success');
  await expect(success).toContainText(`Visita Hostess ${stamp} quedó registrado.`);
  await expect(success).toContainText('Abre su ficha con «Ver cliente»');
  await expect(success).not.toContainText('Mis clientes');
  await page.screenshot({ path: `${SHOTS}/leads-registro-success-hostess.png` });
  await success.getByRole('link', { name: 'Ver cliente' }).click();
  await expect(page.getByRole('heading', { name: `Visita Hostess ${stamp}` })).toBeVisible();
  await page.context().close();
});

test('deleting removes the row once the server confirmed; logout forgets the pinned lead', async ({
  browser,
}) => {
  const page = await newPage(browser);
  await signIn(page, 'asesor@vitrina.demo', `${CLIENTS}/${walkInId}`);
  await page.evaluate((id) => localStorage.setItem('lead-id', id), walkInId);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/corporativos/*/leads/${walkInId}`, async (route) => {
    if (route.request().method() !== 'DELETE') return route.continue();
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Eliminar cliente' }).click();
  const dialog = page.getByRole('dialog', { name: 'Eliminar cliente' });
  await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Eliminando…' })).toBeVisible();
  // Still listed while the server has not answered.
  await expect(page.getByTestId('lead-row').filter({ hasText: walkIn.apellidos })).toHaveCount(1);
  release();
  await expect(page).toHaveURL(CLIENTS);
  await expect(page.getByTestId('lead-row').filter({ hasText: walkIn.apellidos })).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'Navegación principal' })
    .getByRole('button', { name: 'Cerrar sesión' })
    .click();
  await expect(page).toHaveURL('/login');
  expect(await page.evaluate(() => localStorage.getItem('lead-id'))).toBeNull();
  await page.context().close();
});
