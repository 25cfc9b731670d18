import { expect, test, type Browser, type BrowserContext } from '@playwright/test';

/**
 * Arrival notices (issue 14 point 7) in Chromium: the adviser's client has an appointment today;
 * the host administrator marks that client arrived on the showroom's guest list → the guest shows
 * "Llegó a las …" and the adviser's bell counts the notice "Tu cliente llegó"; a walk-in
 * registration of another known client with an appointment today says with whom and when, and
 * records the arrival. Screenshots at 1280 and 390 px.
 */
const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const SHOTS = 'tests/e2e/__screenshots__';
const WALK_IN = `/corporativos/${CORP}/desarrollos/torre-alameda/registro-clientes`;
/** The demo corporate's time zone: "today" for an appointment and an arrival. */
const ZONE = 'America/Mexico_City';

/** Milliseconds from `at` to the next midnight in `zone`. */
function msToMidnight(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const elapsed = ((part('hour') * 60 + part('minute')) * 60 + part('second')) * 1000;
  return 86_400_000 - elapsed - (at % 1000);
}

async function signedIn(browser: Browser, email: string, width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const res = await context.request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

test('a guest with an appointment arrives: attended, the adviser told; a walk-in of a known client records the arrival', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const adviser = await signedIn(browser, 'asesor@vitrina.demo');
  const req = adviser.request;
  const corporate = (await (await req.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json()) as {
    id: string;
  };
  const showrooms = (await (
    await req.get(`/api/wsObtenerShowrooms?idCorporativo=${corporate.id}`)
  ).json()) as { id: string; nombre: string }[];
  const alameda = showrooms.find((s) => s.nombre === 'Showroom Alameda')!;
  const developments = (await (
    await req.get(`/api/wsObtenerDesarrollos?idCorporativo=${corporate.id}`)
  ).json()) as { id: string; slug: string }[];
  const torre = developments.find((d) => d.slug === 'torre-alameda')!;
  // The server's clock (another spec may have moved it and set it back).
  const readServerNow = async () =>
    Date.parse(
      (
        (await (await req.post('/__test__/clock', { data: { advanceMs: 0 } })).json()) as {
          now: string;
        }
      ).now,
    );
  let serverNow = await readServerNow();
  // Everything below happens on one day of the corporate's zone: the appointment starts in
  // 3 minutes and must still be "today" when the walk-in registers. Within 6 minutes of midnight
  // there in the server's clock, no such appointment can be booked (a start in the past is
  // refused), so the test waits for the new day rather than fail on the date line.
  const toMidnight = msToMidnight(serverNow, ZONE);
  if (toMidnight < 6 * 60_000) {
    test.setTimeout(120_000 + toMidnight + 10_000);
    await new Promise((resolve) => setTimeout(resolve, toMidnight + 5_000));
    serverNow = await readServerNow();
  }
  // Names of this attempt only: a retry must not meet the guest an earlier attempt added.
  const stamp = Date.now().toString(36);
  const surname = `Llegada ${stamp}`;
  const book = async (nombre: string, email: string) => {
    const lead = await req.post(`/api/corporativos/${corporate.id}/leads`, {
      data: { nombre, apellidos: surname, email, medioContacto: 'Showroom' },
    });
    expect(lead.status()).toBe(201);
    const start = new Date(serverNow + 3 * 60_000);
    const cita = await req.post(`/api/corporativos/${corporate.id}/citas`, {
      data: {
        idDesarrollo: torre.id,
        idShowroom: alameda.id,
        fechaInicio: start.toISOString(),
        fechaFin: new Date(start.getTime() + 3_600_000).toISOString(),
        titulo: 'Visita',
        tipo: 'visita',
        idLead: ((await lead.json()) as { id: string }).id,
        activo: true,
        enviarRecordatorio: false,
        enviarAntesDe: '10_MIN',
      },
    });
    expect(cita.status()).toBe(201);
  };
  const guestEmail = `lucia.${stamp}@example.com`;
  await book('Lucía', guestEmail);
  await book('Tomás', `tomas.${stamp}@example.com`);

  // Start from an empty bell: earlier specs leave the adviser unread notifications, and the
  // bell's first count arrives after the page shows it.
  const me = (await (await req.get('/api/auth/session')).json()) as { id: string };
  const allRead = await req.put(`/api/corporativos/${corporate.id}/notificaciones/leidas`, {
    data: { idUsuario: me.id, todas: true },
  });
  expect(allRead.status()).toBe(200);
  const page = await adviser.newPage();
  await page.goto(`/corporativos/${CORP}/desarrollos`);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAccessibleName('Notificaciones');
  const before = 0;

  // The host administrator adds Lucía as today's guest and marks her arrived.
  const host = await signedIn(browser, 'hostess@vitrina.demo');
  const hostPage = await host.newPage();
  await hostPage.goto(`/corporativos/${CORP}/showrooms`);
  await hostPage.getByRole('tab', { name: 'Invitados' }).click();
  const form = hostPage.getByRole('form', { name: 'Agregar invitado' });
  await form.getByLabel('Nombre').fill(`Lucía ${surname}`);
  await form.getByLabel('Contacto (correo o teléfono)').fill(guestEmail);
  await form.getByLabel('Asesor que lo atiende').selectOption({ label: 'Sofía Navarro' });
  await form.getByRole('button', { name: 'Agregar invitado' }).click();
  const list = hostPage.getByRole('list', { name: 'Invitados' });
  await expect(list).toContainText(`Lucía ${surname}`);
  // With the keyboard: the button goes once she arrived, focus moves to her name in the list
  // (WCAG 2.4.3), not to the top of the page.
  await hostPage.getByRole('button', { name: `Llegó: Lucía ${surname}` }).press('Enter');
  await expect(list.getByText(/Llegó a las/)).toBeVisible();
  await expect(list.getByText(`Lucía ${surname}`, { exact: true })).toBeFocused();
  await hostPage.screenshot({ path: `${SHOTS}/arrivals-guest-es-1280.png` });

  // The adviser's bell counts it live.
  await expect(bell).toHaveAccessibleName(`Notificaciones, ${before + 1} sin leer`);

  // At the front desk on a phone: Tomás is registered as a walk-in; he is a known client with an
  // appointment today, so his arrival is recorded and the adviser named.
  const phone = await signedIn(browser, 'hostess@vitrina.demo', 390);
  const desk = await phone.newPage();
  await desk.goto(WALK_IN);
  const walkIn = desk.getByRole('form', { name: 'Registro de cliente' });
  await walkIn.getByLabel('Nombre', { exact: true }).fill('Tomás');
  await walkIn.getByLabel('Correo').fill(`tomas.${stamp}@example.com`);
  await walkIn.getByRole('button', { name: 'Registrar cliente' }).click();
  await expect(desk.getByTestId('duplicate-notice')).toBeVisible();
  await expect(desk.getByTestId('walk-in-arrival')).toContainText(
    /Tiene cita hoy a las .+ con Sofía Navarro: registramos su llegada/,
  );
  await desk.screenshot({ path: `${SHOTS}/arrivals-walk-in-es-390.png`, fullPage: true });
  await expect(bell).toHaveAccessibleName(`Notificaciones, ${before + 2} sin leer`, {
    timeout: 15_000,
  });
  // The list names each client and the showroom.
  await bell.click();
  await expect(page.getByText(`Lucía ${surname} llegó a Showroom Alameda`)).toBeVisible();
  await expect(page.getByText(`Tomás ${surname} llegó a Showroom Alameda`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/arrivals-bell-es-1280.png` });

  // Leave no guest behind for the other specs (the guest list of today is theirs too).
  const guests = (await (
    await host.request.get(`/api/corporativos/${corporate.id}/showrooms/${alameda.id}/invitados`)
  ).json()) as { id: string; nombre: string }[];
  for (const g of guests.filter((x) => x.nombre.startsWith('Lucía Llegada ')))
    await host.request.delete(
      `/api/corporativos/${corporate.id}/showrooms/${alameda.id}/invitados/${g.id}`,
    );
  await Promise.all([adviser.close(), host.close(), phone.close()]);
});
