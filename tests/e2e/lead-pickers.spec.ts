import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { developmentUnits, signIn } from './support/api';

/**
 * The lead pickers search the server (issue 21): an adviser with more leads than one page of the
 * lead list (500) picks the oldest of them — beyond that page — by typing, in the quotation
 * page (mouse) and in a unit's hold (keyboard only), and the quotation and the hold are made for
 * that lead. The leads are created through the API by the test, in the Pacific corporate, whose
 * adviser no other spec counts leads of.
 */
const CORP = 'desarrollos-pacifico';
const DEV = 'playa-azul';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/${DEV}`;
const SHOTS = 'tests/e2e/__screenshots__';
/** The lead list's page (the server's `LEADS_PAGE_MAX`). */
const PAGE = 500;

/** `count` leads through the API, a few at a time; the first one created is the oldest. */
async function createLeads(
  request: APIRequestContext,
  corporateId: string,
  count: number,
  run: string,
) {
  const batch = 10;
  for (let start = 0; start < count; start += batch) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, (_, k) =>
        request.post(`/api/corporativos/${corporateId}/leads`, {
          data: {
            nombre: `Reciente ${start + k}`,
            apellidos: `Picker ${run}`,
            email: `reciente${start + k}.${run}@example.com`,
          },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status()).toBe(201);
  }
}

test('an adviser with more than a page of leads picks the oldest by searching, in the quotation page and in a hold', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const req = page.request;
  await signIn(req, 'asesor.pacifico@vitrina.demo');
  const { corporate, units } = await developmentUnits(req, CORP, DEV);
  const available = units.filter((u) => u.status === 'Disponible');

  const run = Date.now().toString(36);
  const far = await req.post(`/api/corporativos/${corporate.id}/leads`, {
    data: {
      nombre: 'Zoraida',
      apellidos: `Lejana ${run}`,
      email: `zoraida.lejana.${run}@example.com`,
    },
  });
  expect(far.status()).toBe(201);
  const farLead = (await far.json()) as { id: string };
  // `fechaAlta` is in seconds (ties go by id): the others come a second later, so all are newer.
  await page.waitForTimeout(1100);
  await createLeads(req, corporate.id, PAGE, run);
  // The whole first page is newer leads: the far lead is beyond it.
  const firstPage = await req.get(`/api/wsObtenerLeads?idCorporativo=${corporate.id}`);
  const firstIds = ((await firstPage.json()) as { id: string }[]).map((l) => l.id);
  expect(firstIds).toHaveLength(PAGE);
  expect(firstIds.includes(farLead.id), 'the far lead is beyond the first page').toBe(false);
  const farName = `Zoraida Lejana ${run}`;

  // The quotation page: the list's search, picked with the mouse, the quotation saved to it.
  await page.goto(`${DEV_PATH}/cotizacion?unidad=${available[0]!.id}`);
  await page.getByRole('group', { name: 'Esquemas' }).getByRole('radio').first().check();
  await expect(page.getByTestId('quote-final-price')).toBeVisible();
  const actions = page.getByRole('region', { name: 'Acciones' });
  await actions.getByRole('radio', { name: 'Elegir de mis clientes' }).check();
  const picker = actions.getByRole('combobox', { name: 'Cliente', exact: true });
  await picker.click();
  await expect(actions.getByRole('status')).toHaveText(
    'Tus clientes más recientes. Escribe para buscar entre todos.',
  );
  await expect(actions.getByRole('option', { name: new RegExp(farName) })).toHaveCount(0);
  await picker.fill(`Zoraida Lejana ${run}`);
  const option = actions.getByRole('option', { name: new RegExp(`^${farName}`) });
  await expect(option).toHaveCount(1);
  await expect(actions.getByRole('status')).toHaveText('1 cliente encontrado.');
  await page.screenshot({ path: `${SHOTS}/lead-picker-quotation.png` });
  await option.click();
  await expect(picker).toHaveValue(farName);
  await actions.getByRole('button', { name: 'Guardar cotización' }).click();
  await expect(page.getByText(`Cotización guardada para ${farName}`)).toBeVisible();

  // Nothing found says so.
  await page.goto(`${DEV_PATH}/cotizacion?unidad=${available[0]!.id}`);
  const again = page.getByRole('region', { name: 'Acciones' });
  await again.getByRole('radio', { name: 'Elegir de mis clientes' }).check();
  await again.getByRole('combobox', { name: 'Cliente', exact: true }).fill(`nadie-${run}`);
  await expect(again.getByRole('status')).toHaveText(`Ningún cliente coincide con «nadie-${run}».`);

  // A unit's hold: the far lead found by its e-mail and picked with the keyboard alone.
  const target = available[1]!;
  await page.goto(`${DEV_PATH}/disponibilidad?unidad=${target.id}&s=caracteristicas`);
  const detail = page.getByRole('region', { name: `Unidad ${target.nombre}` });
  await detail.getByRole('button', { name: 'Apartar', exact: true }).click();
  const holdPicker: Locator = detail.getByRole('combobox', { name: 'Cliente' });
  await holdPicker.focus();
  await page.keyboard.type(`zoraida.lejana.${run}`);
  await expect(detail.getByRole('option', { name: new RegExp(`^${farName}`) })).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(holdPicker).toHaveAttribute('aria-activedescendant', /.+/);
  await page.keyboard.press('Enter');
  await expect(holdPicker).toHaveValue(farName);
  await expect(holdPicker).toHaveAttribute('aria-expanded', 'false');
  await page.screenshot({ path: `${SHOTS}/lead-picker-hold.png` });
  await detail.getByRole('button', { name: 'Apartar para este cliente' }).click();
  await expect(detail.getByTestId('unit-hold')).toHaveText(
    new RegExp(`^Apartado por .+ para ${farName} · quedan`),
  );
  // Released, so the unit is as the seed left it for other specs.
  await detail.getByRole('button', { name: 'Liberar' }).click();
  await expect(detail.getByTestId('unit-hold')).toHaveCount(0);
});

test('the picker says nothing matches only once a search for typed text has answered with none', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page.request, 'asesor.pacifico@vitrina.demo');
  const { units } = await developmentUnits(page.request, CORP, DEV);
  const unit = units.find((u) => u.status === 'Disponible')!;
  // The server answers slowly and with no lead: the blank list (an adviser with none yet) and
  // the typed search alike.
  await page.route(/\/api\/wsObtenerLeads\?/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.fulfill({ json: [] });
  });
  await page.goto(`${DEV_PATH}/disponibilidad?unidad=${unit.id}&s=caracteristicas`);
  const detail = page.getByRole('region', { name: `Unidad ${unit.nombre}` });
  await detail.getByRole('button', { name: 'Apartar', exact: true }).click();
  const picker = detail.getByRole('combobox', { name: 'Cliente' });
  const status = detail.getByRole('status');
  await picker.click();
  // Before the first answer: searching; after it, with nothing typed, a hint, not "none".
  await expect(status).toHaveText('Buscando…');
  await expect(status).toHaveText('Escribe para buscar por nombre, correo o teléfono.');
  await page.screenshot({ path: `${SHOTS}/lead-picker-blank.png` });
  await picker.fill('nadie');
  await expect(status).toHaveText('Buscando…');
  await expect(status).toHaveText('Ningún cliente coincide con «nadie».');
  await page.screenshot({ path: `${SHOTS}/lead-picker-none.png` });
});
