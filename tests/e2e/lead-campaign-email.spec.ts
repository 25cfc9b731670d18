/**
 * Issue 20 item 4 on the lead page: the channel select offers the campaigns (spec §3 `campanias`)
 * of the lead's development apart from the corporate's channels, and saves one; the e-mail link
 * carries the development's `prospecto` template as its body.
 */
import { expect, test } from '@playwright/test';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const CAMPAIGN = 'Feria Inmobiliaria 2026';

test('a lead’s channel can be a campaign of its development; the e-mail link uses its template', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const login = (email: string) =>
    page.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect((await login('admin@vitrina.demo')).status()).toBe(200);
  const corp = (await (await page.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json())
    .id as string;
  const dev = await (
    await page.request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp}&slug=torre-alameda`)
  ).json();
  const ajustes = `/api/corporativos/${corp}/desarrollos/${dev.id}/ajustes`;
  const before = await (await page.request.get(ajustes)).json();
  const set = (body: object) => page.request.put(ajustes, { data: body });
  expect(
    (
      await set({
        campanias: [CAMPAIGN],
        plantillaMensaje: { prospecto: 'Hola {nombre}, te escribe {asesor} sobre {desarrollo}.' },
      })
    ).status(),
  ).toBe(200);
  try {
    expect((await login('asesor@vitrina.demo')).status()).toBe(200);
    const created = await page.request.post(`/api/corporativos/${corp}/leads`, {
      data: {
        nombre: 'Marta',
        apellidos: 'Campaña',
        email: 'marta.campania@example.com',
        desarrollo: dev.id,
        medioContacto: 'Showroom',
      },
    });
    expect(created.status()).toBe(201);
    const lead = await created.json();
    await page.goto(`/corporativos/${CORP}/clientes/${lead.id}`);

    const channel = page.getByLabel('Medio de contacto');
    await expect(
      channel.locator(`optgroup[label="Campañas de ${dev.nombre}"] option`, { hasText: CAMPAIGN }),
    ).toHaveCount(1);
    await channel.selectOption(CAMPAIGN);
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`/api/corporativos/${corp}/leads/${lead.id}`)).json())
            .medioContacto,
      )
      .toBe(CAMPAIGN);

    const mail = page.getByRole('link', { name: 'Escribir un correo' });
    const href = (await mail.getAttribute('href'))!;
    expect(href.startsWith('mailto:marta.campania@example.com?subject=')).toBe(true);
    const body = new URL(href).searchParams.get('body');
    expect(body).toMatch(new RegExp(`^Hola Marta, te escribe .+ sobre ${dev.nombre}\\.$`));
    await page.screenshot({ path: testInfo.outputPath('lead-campaign-email.png'), fullPage: true });
  } finally {
    expect((await login('admin@vitrina.demo')).status()).toBe(200);
    await set({
      campanias: before.campanias,
      plantillaMensaje: { prospecto: before.plantillaMensaje.prospecto },
    });
  }
});
