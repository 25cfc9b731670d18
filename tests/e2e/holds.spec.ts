import { expect, test } from '@playwright/test';
import { developmentUnits, signIn } from './support/api';

/**
 * Unit holds ("apartado", issue 12): an adviser holds a unit for one of their clients from the
 * unit detail; another browser sees it Apartado with the time left, live, on the grid and in
 * the detail; the adviser's release repaints both; held again, the server's clock is moved past
 * the hold's end (`POST /__test__/clock`, on only in the e2e server: scripts/e2e-server.mjs)
 * and the timer releases it: both browsers see Disponible, the history says Sistema.
 */
const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/${DEV}`;
const SHOTS = 'tests/e2e/__screenshots__';

test('an adviser holds a unit; a second browser sees Apartado with the countdown, live; a release and the clock passing the end both give it back to both', async ({
  browser,
}) => {
  const viewport = { width: 1440, height: 900 };
  const adviserContext = await browser.newContext({ viewport });
  const observerContext = await browser.newContext({ viewport });
  await signIn(adviserContext.request, 'asesor@vitrina.demo');
  await signIn(observerContext.request, 'asesor2@vitrina.demo');
  const req = adviserContext.request;
  const { corporate, units } = await developmentUnits(req, CORP, DEV);
  const target = units.filter((u) => u.status === 'Disponible').at(-3)!;
  const lead = await req.post(`/api/corporativos/${corporate.id}/leads`, {
    data: {
      nombre: 'Lucía',
      apellidos: 'Apartado E2E',
      email: 'lucia.apartado@example.com',
      medioContacto: 'Showroom',
    },
  });
  expect(lead.status()).toBe(201);

  const observer = await observerContext.newPage();
  await observer.goto(`${DEV_PATH}/disponibilidad`);
  await expect(observer.getByTestId('availability-grid')).toHaveAttribute('data-ready', 'true');
  const cell = observer.getByRole('button', { name: new RegExp(`^Unidad ${target.nombre},`) });
  await expect(cell).toHaveAccessibleName(`Unidad ${target.nombre}, Disponible`);
  await observer.waitForTimeout(500);

  const adviser = await adviserContext.newPage();
  await adviser.goto(`${DEV_PATH}/disponibilidad?unidad=${target.id}&s=caracteristicas`);
  const detail = adviser.getByRole('region', { name: `Unidad ${target.nombre}` });
  await detail.getByRole('button', { name: 'Apartar', exact: true }).click();
  await detail.getByRole('combobox', { name: 'Cliente' }).fill('Lucía Apartado');
  await detail.getByRole('option', { name: /^Lucía Apartado E2E/ }).click();
  await detail.getByRole('button', { name: 'Apartar para este cliente' }).click();
  await expect(detail.getByTestId('unit-hold')).toHaveText(
    /^Apartado por .+ para Lucía Apartado E2E · quedan (47 h 59|48 h 0) min$/,
  );
  await expect(detail.getByRole('button', { name: 'Liberar' })).toBeVisible();
  await adviser.screenshot({ path: `${SHOTS}/holds-adviser-detail.png` });

  // The other browser repaints at once, with the time left in the cell's name.
  await expect(cell).toHaveAccessibleName(
    new RegExp(`^Unidad ${target.nombre}, Apartado, quedan (47 h 59|48 h 0) min$`),
    { timeout: 2000 },
  );
  await cell.click();
  const seen = observer.getByRole('region', { name: `Unidad ${target.nombre}` });
  await expect(seen.getByTestId('unit-hold')).toHaveText(
    /^Apartado por .+ para Lucía Apartado E2E · quedan (47 h 59|48 h 0) min$/,
  );
  // Not theirs and not a manager: no release; not Disponible: no hold.
  await expect(seen.getByRole('button', { name: 'Liberar' })).toHaveCount(0);
  await expect(seen.getByRole('button', { name: 'Apartar', exact: true })).toHaveCount(0);
  await observer.screenshot({ path: `${SHOTS}/holds-observer.png` });

  await detail.getByRole('button', { name: 'Liberar' }).click();
  await expect(detail.getByTestId('unit-hold')).toHaveCount(0);
  await expect(cell).toHaveAccessibleName(`Unidad ${target.nombre}, Disponible`, {
    timeout: 2000,
  });
  await expect(seen.getByTestId('unit-hold')).toHaveCount(0);

  // Held again; the clock passes the end: the timer gives it back to both browsers.
  await detail.getByRole('button', { name: 'Apartar', exact: true }).click();
  await detail.getByRole('combobox', { name: 'Cliente' }).fill('Lucía Apartado');
  await detail.getByRole('option', { name: /^Lucía Apartado E2E/ }).click();
  await detail.getByRole('button', { name: 'Apartar para este cliente' }).click();
  await expect(cell).toHaveAccessibleName(new RegExp(`^Unidad ${target.nombre}, Apartado, `), {
    timeout: 2000,
  });
  await expect(seen.getByTestId('unit-hold')).toBeVisible();
  try {
    const moved = await req.post('/__test__/clock', {
      data: { advanceMs: 48 * 3_600_000 + 60_000 },
    });
    expect(moved.status()).toBe(200);
    await expect(cell).toHaveAccessibleName(`Unidad ${target.nombre}, Disponible`, {
      timeout: 5000,
    });
    await expect(detail.getByTestId('unit-hold')).toHaveCount(0);
    await expect(seen.getByTestId('unit-hold')).toHaveCount(0);
    await expect(detail.getByRole('button', { name: 'Apartar', exact: true })).toBeVisible();
    const history = await (
      await req.get(`/api/corporativos/${corporate.id}/unidades/${target.id}/historial`)
    ).json();
    expect(history[0]).toMatchObject({
      tipo: 'UnitHoldReleased',
      anterior: 'Apartado',
      nuevo: 'Disponible',
      actor: 'Sistema',
    });
  } finally {
    // Later specs run on the same server: its clock goes back to real time.
    await req.post('/__test__/clock', { data: { reset: true } });
  }
  await adviserContext.close();
  await observerContext.close();
});
