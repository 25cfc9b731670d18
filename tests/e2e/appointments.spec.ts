import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * Appointments (issue 23): the host administrator signs in and lands on today's agenda, books a
 * visit for the adviser's lead; the adviser sees it in the week view, reschedules it with the
 * keyboard (the form's date and time, no dragging), and gets the reminder notification when the
 * server's clock (`POST /__test__/clock`, e2e server only) reaches start − 10 min. Screenshots
 * of every view in es and en at 1280, 820 and 390 px.
 */
const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const SHOTS = 'tests/e2e/__screenshots__';

async function signedIn(
  browser: Browser,
  email: string,
  options: { width?: number; language?: 'es' | 'en' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  if (options.language)
    await context.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), options.language);
  const res = await context.request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

/** Today in Mexico City (the demo corporate's zone), `YYYY-MM-DD`. */
const todayThere = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());

test('the host administrator lands on today’s agenda and books for the adviser’s lead; the adviser sees it in the week, reschedules by keyboard and gets the reminder', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const adviser = await signedIn(browser, 'asesor@vitrina.demo');
  const req = adviser.request;
  const corporate = await (await req.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json();
  const lead = await req.post(`/api/corporativos/${corporate.id}/leads`, {
    data: {
      nombre: 'Mariana',
      apellidos: 'Citas E2E',
      email: 'mariana.citas@example.com',
      medioContacto: 'Showroom',
    },
  });
  expect(lead.status()).toBe(201);
  const leadId = ((await lead.json()) as { id: string }).id;

  // The host administrator signs in through the form and lands on the events page's agenda.
  const hostContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const host = await hostContext.newPage();
  await host.goto('/login');
  await host.getByLabel('Correo').fill('hostess@vitrina.demo');
  await host.getByLabel('Contraseña').fill(PASSWORD);
  await host.getByRole('button', { name: /Iniciar sesión|Entrar/ }).click();
  await expect(host).toHaveURL(new RegExp(`/corporativos/${CORP}/eventos`));
  await expect(host.getByRole('button', { name: 'Agenda', pressed: true })).toBeVisible();

  // Books a visit two hours from now (in the corporate's zone) for the adviser's lead.
  const start = new Date(Date.now() + 2 * 3_600_000);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Mexico_City',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(start);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  const time = `${get('hour')}:00`;
  await host.getByRole('button', { name: 'Nueva cita' }).click();
  const form = host.getByRole('dialog', { name: 'Agendar cita' });
  await form.getByLabel('Buscar cliente').fill('Mariana');
  await form.getByLabel('Cliente', { exact: true }).selectOption(leadId);
  await form.getByLabel('Fecha').fill(day);
  await form.getByLabel('Hora').fill(time);
  await host.screenshot({ path: `${SHOTS}/appointments-form-es-1280.png` });
  expect(await axeViolations(host), 'booking form').toEqual([]);
  await form.getByRole('button', { name: 'Guardar cita' }).click();
  await expect(form).toHaveCount(0);
  await host.goto(`/corporativos/${CORP}/eventos?vista=agenda&fecha=${day}`);
  const item = host.getByTestId('agenda-item').filter({ hasText: 'Mariana Citas E2E' });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Por llegar');

  // The adviser sees it in the week view.
  const page = await adviser.newPage();
  await page.goto(`/corporativos/${CORP}/eventos?fecha=${day}`);
  await expect(page.getByRole('button', { name: 'Semana', pressed: true })).toBeVisible();
  const mine = page.getByTestId('appointment').filter({ hasText: 'Mariana Citas E2E' });
  await expect(mine).toBeVisible();

  // Reschedules with the keyboard: open, "15 min later", save.
  await mine.focus();
  await page.keyboard.press('Enter');
  const edit = page.getByRole('dialog', { name: 'Cita' });
  await edit.getByRole('button', { name: '15 min después' }).focus();
  await page.keyboard.press('Enter');
  const later = `${get('hour')}:15`;
  await expect(edit.getByLabel('Hora', { exact: true })).toHaveValue(later);
  await edit.getByRole('button', { name: 'Guardar cita' }).focus();
  await page.keyboard.press('Enter');
  await expect(edit).toHaveCount(0);
  await expect(mine).toContainText(later);

  // The reminder: the server's clock reaches start − 10 min.
  const citas = await (
    await req.get(
      `/api/wsObtenerCitas?idCorporativo=${corporate.id}&fechaInicio=${day}&fechaFin=${new Date(Date.parse(`${day}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10)}`,
    )
  ).json();
  const cita = citas.find((c: { nombreLead: string }) => c.nombreLead === 'Mariana Citas E2E');
  const due = Date.parse(cita.fechaRecordatorio);
  try {
    const moved = await req.post('/__test__/clock', {
      data: { advanceMs: due - Date.now() + 1000 },
    });
    expect(moved.status()).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await (
              await req.get(
                `/api/wsObtenerNotificaciones?idCorporativo=${corporate.id}&idUsuario=${cita.idAsesor}`,
              )
            ).json()
          ).filter(
            (n: { tipo: string; mensaje: string }) =>
              n.tipo === 'cita.recordatorio' && n.mensaje.includes('Mariana Citas E2E'),
          ).length,
        { timeout: 10_000 },
      )
      .toBe(1);
  } finally {
    await req.post('/__test__/clock', { data: { reset: true } });
  }

  // The .ics download is an iCalendar file with the alarm.
  const ics = await req.get(`/api/corporativos/${corporate.id}/citas/${cita.id}/cita.ics`);
  expect(ics.status()).toBe(200);
  const text = await ics.text();
  expect(text).toContain('BEGIN:VALARM');
  expect(text).toContain('TRIGGER:-PT10M');

  // Attendance is offered once it can be recorded: an arrival from the appointment's day, a
  // no-show only once it started (two hours from now: not yet). Marking moves the focus to the
  // appointment's name, not to the page, as its button goes.
  await host.reload();
  await expect(item).toContainText('Por llegar');
  const arrive = item.getByRole('button', { name: 'Marcar que llegó' });
  await expect(item.getByRole('button', { name: 'Marcar que no asistió' })).toHaveCount(0);
  if (day === todayThere()) {
    await arrive.click();
    await expect(item).toContainText('Llegó');
    await expect(arrive).toHaveCount(0);
    await expect(item.getByRole('button', { name: /Mariana Citas E2E/ })).toBeFocused();
  } else {
    // Booked past midnight in Mexico City: tomorrow's appointment offers no mark yet.
    await expect(arrive).toHaveCount(0);
  }

  await hostContext.close();
  await adviser.close();
});

/** A day `days` after today in Mexico City, `YYYY-MM-DD`, moved off Sunday (the week's last column). */
function dayAhead(days: number): string {
  const base = new Date(`${todayThere()}T12:00:00Z`);
  base.setUTCDate(base.getUTCDate() + days);
  if (base.getUTCDay() === 0) base.setUTCDate(base.getUTCDate() + 1);
  return base.toISOString().slice(0, 10);
}

test('the week is a time grid: a slot opens the booking form at its time (click or Enter), and dragging an appointment moves it after confirmation, with the same PUT', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const adviser = await signedIn(browser, 'asesor@vitrina.demo');
  const req = adviser.request;
  const corporate = await (await req.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json();
  const lead = await req.post(`/api/corporativos/${corporate.id}/leads`, {
    data: {
      nombre: 'Rodrigo',
      apellidos: 'Arrastre E2E',
      email: `rodrigo.arrastre.${Date.now()}@example.com`,
      medioContacto: 'Showroom',
    },
  });
  expect(lead.status()).toBe(201);
  const leadId = ((await lead.json()) as { id: string }).id;
  const day = dayAhead(7);
  const nextDay = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const page = await adviser.newPage();
  await page.goto(`/corporativos/${CORP}/eventos?vista=semana&fecha=${day}`);
  const grid = page.getByRole('grid', { name: /Horario/ });
  await expect(grid).toBeVisible();
  // Monday first: seven day columns after the time column.
  await expect(grid.getByRole('columnheader')).toHaveCount(8);

  // Enter on a slot: the grid is one tab stop; the arrows move, Enter books at that time.
  const slot10 = grid.locator(`[data-slot="${day}T10:00"]`);
  await slot10.focus();
  await page.keyboard.press('ArrowDown');
  await expect(grid.locator(`[data-slot="${day}T10:30"]`)).toBeFocused();
  await page.keyboard.press('Enter');
  let form = page.getByRole('dialog', { name: 'Agendar cita' });
  await expect(form.getByLabel('Fecha')).toHaveValue(day);
  await expect(form.getByLabel('Hora')).toHaveValue('10:30');
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);

  // A click on an empty slot opens the form at its time; book there.
  await slot10.click();
  form = page.getByRole('dialog', { name: 'Agendar cita' });
  await expect(form.getByLabel('Hora')).toHaveValue('10:00');
  await form.getByLabel('Buscar cliente').fill('Rodrigo');
  await form.getByLabel('Cliente', { exact: true }).selectOption(leadId);
  await form.getByRole('button', { name: 'Guardar cita' }).click();
  await expect(form).toHaveCount(0);
  const block = page.getByTestId('appointment').filter({ hasText: 'Rodrigo Arrastre E2E' });
  await expect(block).toContainText('10:00');
  await page.screenshot({ path: `${SHOTS}/appointments-semana-grid-es-1280.png` });

  // Drag it one day to the right and one hour down (snapped to 15 minutes).
  const box = (await block.boundingBox())!;
  const from = { x: box.x + box.width / 2, y: box.y + 8 };
  const next = await grid.locator(`[data-slot="${nextDay}T10:00"]`).boundingBox();
  const rowHeight = (await slot10.boundingBox())!.height;
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(next!.x + next!.width / 2, from.y + 2 * rowHeight + 3, { steps: 12 });
  await expect(block).toContainText('11:00');
  await page.mouse.up();
  const confirm = page.getByTestId('pending-move');
  await expect(confirm).toContainText('11:00');
  await page.screenshot({ path: `${SHOTS}/appointments-drag-confirm-es-1280.png` });
  expect(await axeViolations(page), 'week grid with a move to confirm').toEqual([]);
  // Undo puts it back where it was; nothing was sent.
  await confirm.getByRole('button', { name: 'Deshacer' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(block).toContainText('10:00');

  // Again, and this time confirm: the appointment is saved at the new day and time.
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/citas/'));
  const again = (await block.boundingBox())!;
  await page.mouse.move(again.x + again.width / 2, again.y + 8);
  await page.mouse.down();
  await page.mouse.move(next!.x + next!.width / 2, again.y + 8 + 2 * rowHeight + 3, { steps: 12 });
  await page.mouse.up();
  await page.getByTestId('pending-move').getByRole('button', { name: 'Mover cita' }).click();
  const body = (await put).postDataJSON() as { fechaInicio: string; fechaFin: string };
  await expect(page.getByTestId('pending-move')).toHaveCount(0);
  const moved = page
    .getByRole('list', { name: /^Citas del/ })
    .nth(weekdayIndex(nextDay))
    .getByTestId('appointment')
    .filter({ hasText: 'Rodrigo Arrastre E2E' });
  await expect(moved).toContainText('11:00');
  const zoned = (iso: string) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Mexico_City',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .format(new Date(iso))
      .replace(',', '');
  expect(zoned(body.fechaInicio)).toBe(`${nextDay} 11:00`);
  expect(Date.parse(body.fechaFin) - Date.parse(body.fechaInicio)).toBe(3_600_000);
  const saved = await (
    await req.get(
      `/api/wsObtenerCitas?idCorporativo=${corporate.id}&fechaInicio=${day}&fechaFin=${dayAhead(10)}`,
    )
  ).json();
  const mine = saved.find((c: { idLead: string }) => c.idLead === leadId);
  expect(zoned(mine.fechaInicio)).toBe(`${nextDay} 11:00`);

  // The keyboard's drag: Alt + arrows propose a move with the same confirmation.
  await moved.focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByTestId('pending-move')).toContainText('11:15');
  await expect(
    page.getByTestId('pending-move').getByRole('button', { name: 'Mover cita' }),
  ).toBeFocused();
  await page.getByTestId('pending-move').getByRole('button', { name: 'Deshacer' }).click();
  await expect(moved).toContainText('11:00');

  // A move the server refuses (cancelled meanwhile, from elsewhere) shows the server's message
  // and leaves the appointment where it was.
  const url = `/api/corporativos/${corporate.id}/citas/${mine.id}`;
  expect((await req.delete(url)).status()).toBe(200);
  const refusal = await req.put(url, {
    data: { titulo: 'x' },
    headers: { 'accept-language': 'es' },
  });
  expect(refusal.status()).toBe(409);
  const { message } = ((await refusal.json()) as { message: string }[])[0]!;
  const at11 = (await moved.boundingBox())!;
  await page.mouse.move(at11.x + at11.width / 2, at11.y + 8);
  await page.mouse.down();
  await page.mouse.move(at11.x + at11.width / 2, at11.y + 8 + 2 * rowHeight + 3, { steps: 12 });
  await page.mouse.up();
  await page.getByTestId('pending-move').getByRole('button', { name: 'Mover cita' }).click();
  await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
  await expect(page.getByTestId('pending-move')).toHaveCount(0);
  await adviser.close();
});

test('a title nobody typed is no text: booked by the host in Spanish, the English-speaking adviser reads “Visit · …”; a typed title stays as typed', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const day = dayAhead(2);
  const stamp = Date.now().toString(36);
  const adviser = await signedIn(browser, 'asesor@vitrina.demo', { language: 'en' });
  const req = adviser.request;
  const corporate = await (await req.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json();
  const newLead = async (nombre: string) => {
    const res = await req.post(`/api/corporativos/${corporate.id}/leads`, {
      data: {
        nombre,
        apellidos: `Idiomas ${stamp}`,
        email: `${nombre.toLowerCase()}.idiomas.${stamp}@example.com`,
        medioContacto: 'Showroom',
      },
    });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const elena = await newLead('Elena');
  const tomas = await newLead('Tomas');
  const elenaName = `Elena Idiomas ${stamp}`;

  // The host books in Spanish and leaves the title empty: the field proposes the automatic one
  // and sends none.
  const hostContext = await signedIn(browser, 'hostess@vitrina.demo', { language: 'es' });
  const host = await hostContext.newPage();
  await host.goto(`/corporativos/${CORP}/eventos?vista=agenda&fecha=${day}`);
  const bookIt = async (leadId: string, search: string, time: string, titulo?: string) => {
    await host.getByRole('button', { name: 'Nueva cita' }).click();
    const form = host.getByRole('dialog', { name: 'Agendar cita' });
    await form.getByLabel('Buscar cliente').fill(search);
    await form.getByLabel('Cliente', { exact: true }).selectOption(leadId);
    await form.getByLabel('Fecha').fill(day);
    await form.getByLabel('Hora').fill(time);
    const title = form.getByLabel('Título');
    await expect(title).toHaveValue('');
    if (titulo) await title.fill(titulo);
    const post = host.waitForRequest((r) => r.method() === 'POST' && /\/citas$/.test(r.url()));
    await form.getByRole('button', { name: 'Guardar cita' }).click();
    const sent = (await post).postDataJSON() as { titulo: string | null };
    await expect(form).toHaveCount(0);
    return { sent };
  };
  await host.getByRole('button', { name: 'Nueva cita' }).click();
  const form = host.getByRole('dialog', { name: 'Agendar cita' });
  await form.getByLabel('Buscar cliente').fill('Elena');
  await form.getByLabel('Cliente', { exact: true }).selectOption(elena);
  const title = form.getByLabel('Título');
  await expect(title).toHaveValue('');
  await expect(title).toHaveAttribute('placeholder', `Visita · ${elenaName}`);
  await expect(form).toContainText(`Si lo dejas vacío, se muestra «Visita · ${elenaName}»`);
  await host.keyboard.press('Escape');
  const automatic = await bookIt(elena, 'Elena', '11:00');
  expect(automatic.sent.titulo).toBeNull();
  const typed = await bookIt(tomas, 'Tomas', '12:00', 'Recorrido por la torre');
  expect(typed.sent.titulo).toBe('Recorrido por la torre');
  const hostItem = host.getByTestId('agenda-item').filter({ hasText: elenaName });
  await expect(hostItem).toContainText(`Visita · ${elenaName}`);

  // The adviser reads the calendar in English.
  const page = await adviser.newPage();
  await page.goto(`/corporativos/${CORP}/eventos?vista=agenda&fecha=${day}`);
  const item = page.getByTestId('agenda-item').filter({ hasText: elenaName });
  await expect(item).toContainText(`Visit · ${elenaName}`);
  await expect(item).not.toContainText('Visita');
  await expect(
    page.getByTestId('agenda-item').filter({ hasText: `Tomas Idiomas ${stamp}` }),
  ).toContainText('Recorrido por la torre');
  await page.screenshot({ path: `${SHOTS}/appointments-automatic-title-en-1280.png` });

  // Opened, its title field is empty with the English proposal; its .ics is in English too.
  await item.getByRole('button', { name: new RegExp(elenaName) }).click();
  const edit = page.getByRole('dialog', { name: 'Appointment' });
  await expect(edit.getByLabel('Title')).toHaveValue('');
  await expect(edit.getByLabel('Title')).toHaveAttribute('placeholder', `Visit · ${elenaName}`);
  expect(await axeViolations(page), 'appointment with an automatic title').toEqual([]);
  const href = await edit.getByRole('link', { name: 'Download .ics' }).getAttribute('href');
  const ics = (await (await req.get(href!)).text()).replace(/\r\n /g, '');
  expect(ics).toContain(`SUMMARY:Visit · ${elenaName} — ${elenaName}`);
  // Saved untouched (another time), it keeps no title of its own.
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/citas/'));
  await edit.getByRole('button', { name: '15 min later' }).click();
  await edit.getByRole('button', { name: 'Save appointment' }).click();
  expect((await put).postDataJSON()).not.toHaveProperty('titulo');
  await expect(edit).toHaveCount(0);
  await host.reload();
  await expect(hostItem).toContainText(`Visita · ${elenaName}`);

  // The client's history names the appointment by its title, in the reader's language, and a
  // language switch rewrites it without a new read.
  await page.goto(`/corporativos/${CORP}/clientes/${elena}`);
  const history = page.getByRole('list', { name: 'Change history' });
  await expect(history).toContainText(`Appointment “Visit · ${elenaName}”`);
  await expect(history).not.toContainText('Visita');
  await history.screenshot({ path: `${SHOTS}/appointments-lead-history-en-1280.png` });
  await page.getByTestId('language-toggle').click();
  await expect(page.getByRole('list', { name: 'Historial de cambios' })).toContainText(
    `Cita «Visita · ${elenaName}»`,
  );

  await hostContext.close();
  await adviser.close();
});

/** 0 = Monday … 6 = Sunday of a `YYYY-MM-DD`. */
function weekdayIndex(day: string): number {
  return (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
}

test('screenshots of every view in es and en at 1280, 820 and 390 px', async ({ browser }) => {
  test.setTimeout(240_000);
  // Tomorrow (bookings in the past are refused), with a morning where two visits overlap.
  const day = dayAhead(1);
  const adviser = await signedIn(browser, 'asesor@vitrina.demo');
  const req = adviser.request;
  const corporate = await (await req.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json();
  const showrooms = (await (
    await req.get(`/api/wsObtenerShowrooms?idCorporativo=${corporate.id}`)
  ).json()) as { id: string; activo: boolean }[];
  const showroom = showrooms.find((s) => s.activo)!;
  const developments = (await (
    await req.get(`/api/wsObtenerDesarrollos?idCorporativo=${corporate.id}`)
  ).json()) as { id: string }[];
  const at = (time: string) => new Date(`${day}T${time}:00-06:00`).toISOString();
  for (const [i, [from, to]] of [
    ['10:00', '11:00'],
    ['10:30', '11:30'],
    ['13:00', '14:30'],
  ].entries()) {
    const lead = await req.post(`/api/corporativos/${corporate.id}/leads`, {
      data: {
        nombre: ['Lucía', 'Andrés', 'Carmen'][i],
        apellidos: 'Vistas E2E',
        email: `vistas.${i}.${Date.now()}@example.com`,
        medioContacto: 'Showroom',
      },
    });
    expect(lead.status()).toBe(201);
    const booked = await req.post(`/api/corporativos/${corporate.id}/citas`, {
      data: {
        idDesarrollo: developments[0]!.id,
        idShowroom: showroom.id,
        fechaInicio: at(from!),
        fechaFin: at(to!),
        titulo: 'Visita al showroom',
        tipo: 'visita',
        idLead: ((await lead.json()) as { id: string }).id,
        enviarRecordatorio: true,
        enviarAntesDe: '10_MIN',
        activo: true,
      },
    });
    expect(booked.status(), await booked.text()).toBe(201);
  }
  await adviser.close();
  for (const language of ['es', 'en'] as const) {
    for (const width of [1280, 820, 390]) {
      const context = await signedIn(browser, 'hostess@vitrina.demo', { width, language });
      const page = await context.newPage();
      for (const view of ['agenda', 'dia', 'semana', 'mes'] as const) {
        await page.goto(`/corporativos/${CORP}/eventos?vista=${view}&fecha=${day}`);
        await expect(page.getByRole('button', { pressed: true })).toBeVisible();
        await expect(page.getByText(/Cargando citas|Loading appointments/)).toHaveCount(0);
        const seeded = page
          .getByTestId(view === 'agenda' ? 'agenda-item' : 'appointment')
          .filter({ hasText: 'Vistas E2E' });
        await expect(seeded.first()).toBeVisible();
        if (view !== 'mes') await expect.poll(() => seeded.count()).toBeGreaterThanOrEqual(3);
        await page.screenshot({
          path: `${SHOTS}/appointments-${view}-${language}-${width}.png`,
          fullPage: view !== 'dia',
        });
        expect(await axeViolations(page), `${view} ${language} ${width}`).toEqual([]);
      }
      await context.close();
    }
  }
});
