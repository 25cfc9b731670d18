import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/${DEV}`;
const SHOTS = 'tests/e2e/__screenshots__';
const OUT = 'test-results/quotes';

interface ApiUnit {
  id: string;
  nombre: string;
  idCluster: string;
  status?: string;
  precio: number;
}

interface ApiCluster {
  id: string;
  nombre: string;
  unidades: ApiUnit[];
}

interface ApiScheme {
  id: string;
  nombre: string;
  idCluster?: string;
  descuento: { porcentaje: number };
  mensualidades: { porcentaje: number; numeroMensualidades?: number };
  valido: boolean;
}

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
}

async function alameda(request: APIRequestContext) {
  const corporate = (await (
    await request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as { id: string; zonaHoraria: string };
  const dev = (await (
    await request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corporate.id}&slug=${DEV}`)
  ).json()) as { id: string; opcionales: { id: string; nombre: string; precio: number }[] };
  const clusters = (await (
    await request.get(`/api/wsObtenerClusters?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}`)
  ).json()) as ApiCluster[];
  return { corporate, dev, clusters };
}

/** `$1,234,568 MXN` — spec §9 (thousands commas, no decimals, `$`). */
function money(pesos: number, code = 'MXN'): string {
  return `$${Math.round(pesos).toLocaleString('en-US')} ${code}`;
}

async function shot(page: Page, name: string, fullPage = false) {
  await page.screenshot({ path: `${SHOTS}/quotes-${name}.png`, fullPage });
}

/** The whole units of `$1,234,568 MXN`. */
function units(text: string | null): number {
  const m = /(-?)\$([\d,]+)/.exec(text ?? '');
  if (!m) throw new Error(`no amount in ${text}`);
  return (m[1] ? -1 : 1) * Number(m[2]!.replace(/,/g, ''));
}

/** The cents of `$1,234,568 MXN` or `$25,000.50 MXN`. */
function cents(text: string | null): number {
  const m = /(-?)\$([\d,]+)(?:\.(\d{2}))?/.exec(text ?? '');
  if (!m) throw new Error(`no amount in ${text}`);
  return (m[1] ? -1 : 1) * (Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3] ?? 0));
}

/** The instalment rows of the schedule (its last row is the total). */
const INSTALMENT_ROWS = 'tbody tr:not([data-testid="instalments-total"])';

/**
 * Every breakdown of the figures adds up as shown, to the cent (spec §9 shows whole units; a
 * quotation with a price entered with cents shows cents): the parts to the final price and the
 * totals row, the instalments to the monthly part and their totals row, the additions to the
 * optionals line, list − discount to the price after discount.
 */
async function expectFiguresAddUp(figures: ReturnType<Page['getByTestId']>) {
  const final = cents(await figures.getByTestId('quote-final-price').textContent());
  const partCells = figures.getByTestId('quote-parts').locator('tbody td:nth-child(3)');
  const parts = (await partCells.allTextContents()).map(cents);
  expect(parts.reduce((a, b) => a + b, 0)).toBe(final);
  const partsTotal = figures.getByTestId('quote-parts').locator('tfoot td').nth(2);
  expect(cents(await partsTotal.textContent())).toBe(final);
  const instalments = figures.getByTestId('quote-instalments');
  if ((await instalments.count()) > 0) {
    const monthly = cents(
      await figures
        .getByTestId('quote-parts')
        .locator('tr[data-part="mensualidades"] td:nth-child(3)')
        .textContent(),
    );
    const amounts = (
      await instalments.locator(`${INSTALMENT_ROWS} td:nth-child(3)`).allTextContents()
    ).map(cents);
    expect(amounts.reduce((a, b) => a + b, 0)).toBe(monthly);
    // The schedule's total: once, after the last instalment (issue 19), not a repeated footer.
    expect(await instalments.locator('tfoot').count()).toBe(0);
    expect(
      cents(await instalments.getByTestId('instalments-total').locator('td').last().textContent()),
    ).toBe(monthly);
  }
  const summary = (await figures.locator('dl dd').allTextContents()).map(cents);
  const [list, discount, after] = summary as [number, number, number];
  expect(list - Math.abs(discount)).toBe(after);
  const additions = figures.getByTestId('quote-additions');
  if ((await additions.count()) > 0) {
    // Optionals and manual extras are two lines of the summary (issue 19).
    let extras = 0;
    for (const id of ['quote-extras', 'quote-manual-extras']) {
      const line = figures.getByTestId(id);
      if ((await line.count()) > 0) extras += cents(await line.textContent());
    }
    expect(after + extras).toBe(final);
    const rows = (await additions.locator('tbody td:nth-child(3)').allTextContents()).map(cents);
    expect(rows.reduce((a, b) => a + b, 0)).toBe(extras);
  } else {
    expect(after).toBe(final);
  }
}

/**
 * Records every state of the figures the page commits from now on (a MutationObserver sees each
 * render), so a test can check the states in between, not only the one it waits for.
 */
async function recordFigures(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __figures: string[][] };
    w.__figures = [];
    const read = () => {
      const root = document.querySelector('[data-testid="quote-figures"]');
      if (!root) return;
      const amounts = [...root.querySelectorAll('dl dd, [data-testid="quote-additions"] td')]
        .map((el) => el.textContent ?? '')
        .filter((text) => text.includes('$'));
      const last = w.__figures.at(-1);
      if (!last || last.join('|') !== amounts.join('|')) w.__figures.push(amounts);
    };
    read();
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}

/**
 * Every recorded state shows its amounts in one currency, one list price per currency (never one
 * choice's labels on another's amounts), and adds up: list − discount, plus the extras lines, is
 * the final price, and the additions' rows add up to the extras lines.
 */
async function expectEachStateConsistent(page: Page) {
  const states = await page.evaluate(
    () => (window as unknown as { __figures: string[][] }).__figures,
  );
  expect(states.length).toBeGreaterThan(1);
  const listPrices = new Map<string, number>();
  for (const amounts of states) {
    const shown = amounts.join(' · ');
    const codes = new Set(amounts.map((text) => /\b([A-Z]{3})\b/.exec(text)?.[1]));
    expect(codes.size, shown).toBe(1);
    const [list, discount, after, ...rest] = amounts.map(units);
    const code = [...codes][0]!;
    expect(listPrices.get(code) ?? list, shown).toBe(list);
    listPrices.set(code, list!);
    expect(list! - Math.abs(discount!), shown).toBe(after);
    // The summary's extras lines (`+$…`), then the final price, then the additions' rows.
    const lines = rest.filter((_, i) => amounts[i + 3]!.startsWith('+'));
    const [final, ...rows] = rest.slice(lines.length);
    const extras = lines.reduce((a, b) => a + b, 0);
    expect(after! + extras, shown).toBe(final);
    expect(
      rows.reduce((a, b) => a + b, 0),
      shown,
    ).toBe(extras);
  }
}

/** The page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

/** dd_mm_yyyy of now in the corporate's time zone (spec §9 file name). */
function todayParts(timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).formatToParts(new Date());
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('day')}_${get('month')}_${get('year')}`;
}

test.describe('quotations', () => {
  test.beforeAll(() => mkdirSync(OUT, { recursive: true }));

  test('adviser quotes a Disponible unit of Torre B with its own 30/70 and an optional, saves it to the pinned lead and shares it; the buyer prints it', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page.request, 'asesor@vitrina.demo');
    const { corporate, dev, clusters } = await alameda(page.request);
    const towerB = clusters.find((c) => c.nombre === 'Torre B')!;
    const unit = towerB.unidades.find((u) => u.status === 'Disponible')!;
    expect(unit).toBeTruthy();

    // The schemes of Torre B: its own 30/70 variant replaces the default one.
    const schemes = (await (
      await page.request.get(
        `/api/wsObtenerEsquemasPago?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}&idCluster=${towerB.id}`,
      )
    ).json()) as ApiScheme[];
    const variant = schemes.find((s) => s.nombre === '30/70')!;
    expect(variant.idCluster).toBe(towerB.id);
    expect(variant.descuento.porcentaje).toBe(0.05);
    expect(variant.mensualidades.numeroMensualidades).toBe(24);
    const bodega = dev.opcionales.find((o) => o.nombre === 'Bodega')!;

    // Pin a lead of the adviser's.
    const leadRes = await page.request.post(`/api/corporativos/${corporate.id}/leads`, {
      data: { nombre: 'Lucía', apellidos: 'Quintero', email: 'lucia.quintero@example.com' },
    });
    expect(leadRes.status()).toBe(201);
    const lead = (await leadRes.json()) as { id: string };
    await page.addInitScript((id) => {
      if (!localStorage.getItem('lead-id')) localStorage.setItem('lead-id', id);
    }, lead.id);

    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await expect(page.getByRole('heading', { name: `Unidad ${unit.nombre}` })).toBeVisible();
    const schemesGroup = page.getByRole('group', { name: 'Esquemas' });
    // The choice is the URL's (a navigation): under load the controlled radio can show its old
    // state for a moment after the click, which `check()` reads as a click that did nothing.
    const variantRadio = schemesGroup.getByRole('radio', { name: /30\/70/ });
    await expect(async () => {
      await variantRadio.check();
      await expect(variantRadio).toBeChecked({ timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await expect(schemesGroup.getByText('Variante de la torre')).toBeVisible();
    await expect(page.getByText('Descuento (5%)')).toBeVisible();
    await expect(page.getByText('(24 mensualidades)')).toBeVisible();

    // One optional, chosen on cotizacion-adicionales and carried back.
    await page.getByRole('link', { name: 'Elegir opcionales y extras' }).click();
    await expect(page).toHaveURL(/cotizacion-adicionales/);
    await page.getByRole('checkbox', { name: /Bodega/ }).check();
    await shot(page, 'extras');
    await page.getByRole('link', { name: 'Volver a la cotización' }).click();
    await expect(page).toHaveURL(/\/cotizacion\?/);

    // Price after the 5% discount plus the optional (spec §9 discount formula).
    const finalPrice = unit.precio - unit.precio * 0.05 + bodega.precio;
    await expect(page.getByTestId('quote-final-price')).toHaveText(money(finalPrice));
    await expect(
      page.getByTestId('quote-figures').getByRole('cell', { name: 'Bodega' }),
    ).toBeVisible();
    await expect(page.getByTestId('quote-instalments').locator(INSTALMENT_ROWS)).toHaveCount(24);
    // Totals row: the parts add up to the final price and their shares to 100 %, said in figures
    // (no bare check mark; issue 19).
    await expect(page.getByTestId('quote-parts').locator('tfoot')).toContainText(money(finalPrice));
    await expect(page.getByTestId('quote-parts').locator('tfoot td').nth(1)).toHaveText(
      /^100\s?%$/,
    );
    await expect(page.getByTestId('quote-not-verified')).toHaveCount(0);

    // Save to the pinned lead (selected by default).
    await expect(page.getByRole('radio', { name: 'Cliente fijado: Lucía Quintero' })).toBeChecked();
    await page.getByRole('button', { name: 'Guardar cotización' }).click();
    await expect(page.getByText('Cotización guardada para Lucía Quintero')).toBeVisible();
    const favourite = page.getByRole('button', { name: 'Favorita' });
    await expect(favourite).toHaveAttribute('aria-pressed', 'false');
    await favourite.click();
    await expect(favourite).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('button', { name: 'Compartir' }).click();
    await expect(
      page.getByText('El link ha sido copiado correctamente al portapapeles'),
    ).toBeVisible();
    const shareUrl = (await page.getByTestId('share-link').getAttribute('href'))!;
    // `kid.payload.signature`: the key id, then the signed payload (issue 13); then the buyer's
    // language the adviser chose (issue 19), Spanish here.
    expect(shareUrl).toMatch(
      /\/public\/cotizacion\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\?lang=es$/,
    );
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
    await page.setViewportSize({ width: 1440, height: 1400 });
    await page.getByRole('heading', { name: `Unidad ${unit.nombre}` }).scrollIntoViewIfNeeded();
    await shot(page, 'quotation');
    await page.setViewportSize({ width: 1440, height: 900 });

    // The lead's page lists the quotation, newest first.
    await page.getByRole('link', { name: 'Ver el cliente Lucía Quintero' }).click();
    const listed = page.getByTestId('lead-quotation').first();
    await expect(listed).toContainText(unit.nombre);
    await expect(listed).toContainText(money(finalPrice));
    await listed.scrollIntoViewIfNeeded();
    await shot(page, 'lead');

    // From the lead, the quotation's links for the client: the one just shared is active; a new
    // one is made and copied, and the older one can still be copied or opened.
    await listed.getByText('Enlaces para el cliente').click();
    const linkItems = listed.getByTestId('share-link-item');
    await expect(linkItems).toHaveCount(1);
    await expect(linkItems.first()).toHaveAttribute('data-state', 'active');
    await expect(linkItems.first().getByRole('link', { name: 'Abrir' })).toHaveAttribute(
      'href',
      shareUrl,
    );
    await listed.getByRole('button', { name: 'Crear enlace para el cliente' }).click();
    await expect(linkItems).toHaveCount(2);
    const newest = (await linkItems
      .first()
      .getByRole('link', { name: 'Abrir' })
      .getAttribute('href'))!;
    expect(newest).not.toBe(shareUrl);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newest);
    await linkItems.nth(1).getByRole('button', { name: 'Copiar enlace' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
    await listed.scrollIntoViewIfNeeded();
    await shot(page, 'lead-links');

    // The buyer, signed out, opens the link and prints it.
    const buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const buyer = await buyerContext.newPage();
      await buyer.goto(shareUrl);
      const doc = buyer.getByTestId('public-quotation');
      await expect(doc).toBeVisible();
      await expect(doc.getByTestId('quote-final-price')).toHaveText(money(finalPrice));
      await expect(doc).toContainText('Lucía Quintero');
      await expect(doc.locator('img').first()).toBeVisible();
      await shot(buyer, 'public', true);
      await buyer.emulateMedia({ media: 'print' });
      await expect(buyer.getByRole('button', { name: 'Imprimir' })).toBeHidden();
      await shot(buyer, 'print', true);
      const pdfPath = `${OUT}/quote.pdf`;
      await buyer.pdf({ path: pdfPath, format: 'A4', printBackground: true });
      const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
      expect(text).toContain(unit.nombre);
      expect(text).toContain(money(finalPrice));
      expect(text).toContain('Bodega');
      const pages = text.split('\f').filter((p) => p.trim().length > 0).length;
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(pages).toBeLessThanOrEqual(2);

      // A modified token is refused.
      await buyer.emulateMedia({ media: 'screen' });
      // The token's last character changed (the link's `?lang=` stays as it is).
      const [tokenUrl, query] = shareUrl.split('?') as [string, string];
      const last = tokenUrl.at(-1) === 'A' ? 'B' : 'A';
      await buyer.goto(`${tokenUrl.slice(0, -1)}${last}?${query}`);
      await expect(buyer.getByRole('alert')).toContainText('Enlace no válido');
      await shot(buyer, 'invalid-link');
    } finally {
      await buyerContext.close();
    }
  });

  test('the adviser revokes one of two share links: the buyer is told the adviser turned it off, the other link still opens', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1440, height: 1100 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page.request, 'asesor@vitrina.demo');
    const { corporate, clusters } = await alameda(page.request);
    const towerB = clusters.find((c) => c.nombre === 'Torre B')!;
    const unit = towerB.unidades.filter((u) => u.status === 'Disponible').at(-1)!;
    const leadRes = await page.request.post(`/api/corporativos/${corporate.id}/leads`, {
      data: { nombre: 'Andrés', apellidos: 'Villalobos', email: 'andres.villalobos@example.com' },
    });
    expect(leadRes.status()).toBe(201);
    const lead = (await leadRes.json()) as { id: string };
    await page.addInitScript((id) => localStorage.setItem('lead-id', id), lead.id);

    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await page
      .getByRole('group', { name: 'Esquemas' })
      .getByRole('radio', { name: /30\/70/ })
      .check();
    await expect(
      page.getByRole('radio', { name: 'Cliente fijado: Andrés Villalobos' }),
    ).toBeChecked();
    await page.getByRole('button', { name: 'Guardar cotización' }).click();
    await expect(page.getByText('Cotización guardada para Andrés Villalobos')).toBeVisible();

    // Two links: the first for the buyer, the second for the buyer's partner.
    const shareLink = page.getByTestId('share-link');
    const items = page.getByTestId('share-link-item');
    await page.getByRole('button', { name: 'Compartir' }).click();
    await expect(items).toHaveCount(1);
    const firstUrl = (await shareLink.getAttribute('href'))!;
    await page.getByRole('button', { name: 'Compartir' }).click();
    await expect(items).toHaveCount(2);
    await expect(shareLink).not.toHaveAttribute('href', firstUrl);
    const secondUrl = (await shareLink.getAttribute('href'))!;
    await expect(items.getByText('Activo', { exact: true })).toHaveCount(2);
    await expect(items.first()).toContainText('Vence el');

    // Newest first: the first link is the second row.
    await items.nth(1).getByRole('button', { name: 'Revocar enlace' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Revocar este enlace?' });
    await expect(dialog).toContainText('ya no podrá abrir la cotización');
    await shot(page, 'revoke-confirm');
    await dialog.getByRole('button', { name: 'Revocar enlace' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Enlace revocado: ya no abre la cotización')).toBeVisible();
    await expect(items.nth(1)).toHaveAttribute('data-state', 'revoked');
    await expect(items.nth(1)).toContainText('Revocado el');
    await expect(items.nth(1).getByRole('button', { name: 'Revocar enlace' })).toHaveCount(0);
    await expect(items.first()).toHaveAttribute('data-state', 'active');
    await page.getByTestId('share-links').scrollIntoViewIfNeeded();
    await shot(page, 'shares-revoked');

    const buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const buyer = await buyerContext.newPage();
      await buyer.goto(firstUrl);
      const alert = buyer.getByRole('alert');
      await expect(alert).toContainText('Este enlace fue desactivado');
      await expect(alert).toContainText('El asesor desactivó este enlace; pídele uno nuevo.');
      await expect(buyer.getByTestId('public-quotation')).toHaveCount(0);
      await shot(buyer, 'revoked-link');
      await buyer.goto(secondUrl);
      await expect(buyer.getByTestId('public-quotation')).toContainText('Andrés Villalobos');
    } finally {
      await buyerContext.close();
    }
  });

  test('a Vendido unit cannot be quoted', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { corporate, clusters } = await alameda(page.request);
    const sold = clusters.flatMap((c) => c.unidades).find((u) => u.status === 'Vendido')!;
    await page.goto(`${DEV_PATH}/cotizacion?unidad=${sold.id}`);
    const why = page.getByTestId('not-quotable');
    await expect(why).toContainText('Esta unidad no se puede cotizar');
    await expect(why).toContainText('Vendido');
    await expect(page.getByRole('button', { name: 'Guardar cotización' })).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Esquemas' })).toHaveCount(0);
    await shot(page, 'not-quotable');
    // The server refuses it too.
    const res = await page.request.post(`/api/corporativos/${corporate.id}/cotizaciones`, {
      data: {
        idUnidad: sold.id,
        idEsquema: 'any',
        divisa: 'MXN',
        nuevoLead: { nombre: 'Nadie' },
      },
    });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { errorCode: string }[])[0]!.errorCode).toBe('UNIT_NOT_QUOTABLE');
  });

  test('a visitor simulates a quote from the public availability; nothing is saved', async ({
    page,
    browser,
  }) => {
    // Unit data through a signed-in context; the visitor's page stays signed out.
    const staff = await browser.newContext();
    const { clusters } = await (async () => {
      try {
        await signIn(staff.request, 'asesor@vitrina.demo');
        return await alameda(staff.request);
      } finally {
        await staff.close();
      }
    })();
    const towerB = clusters.find((c) => c.nombre === 'Torre B')!;
    const unit = towerB.unidades.filter((u) => u.status === 'Disponible')[1]!;
    const sold = clusters.flatMap((c) => c.unidades).find((u) => u.status === 'Vendido')!;
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto(
      `/public/corporativos/${CORP}/desarrollos/${DEV}/disponibilidad?unidad=${unit.id}`,
    );
    await page.getByTestId('unit-detail').getByRole('link', { name: 'Cotizar' }).click();
    await expect(page).toHaveURL(
      new RegExp(`/public/corporativos/${CORP}/desarrollos/${DEV}/cotizacion\\?unidad=${unit.id}`),
    );
    await expect(page.getByRole('heading', { name: `Unidad ${unit.nombre}` })).toBeVisible();
    await page
      .getByRole('group', { name: 'Esquemas' })
      .getByRole('radio', { name: /30\/70/ })
      .check();
    await expect(page.getByTestId('quote-final-price')).toHaveText(money(unit.precio * 0.95));
    await expect(page.getByRole('button', { name: 'Guardar cotización' })).toHaveCount(0);
    await shot(page, 'simulator');

    await page.goto(`/public/corporativos/${CORP}/desarrollos/${DEV}/cotizacion?unidad=${sold.id}`);
    await expect(page.getByTestId('not-quotable')).toContainText('Vendido');
  });

  test('the manager exports the weekly CSV; an adviser without the permission has no button', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'gerente@vitrina.demo');
    const { corporate, dev, clusters } = await alameda(page.request);
    // One quotation of the manager's own this week (the adviser's from the first test may be there too).
    const towerA = clusters.find((c) => c.nombre === 'Torre A')!;
    const unit = towerA.unidades.find((u) => u.status === 'Disponible')!;
    const schemes = (await (
      await page.request.get(
        `/api/wsObtenerEsquemasPago?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}&idCluster=${towerA.id}`,
      )
    ).json()) as ApiScheme[];
    const quoteNewClient = (divisa: string, nombre: string, apellidos: string) =>
      page.request.post(`/api/corporativos/${corporate.id}/cotizaciones`, {
        data: {
          idUnidad: unit.id,
          idEsquema: schemes.find((s) => s.valido)!.id,
          divisa,
          nuevoLead: { nombre, apellidos },
        },
      });
    expect((await quoteNewClient('MXN', 'Ramiro', 'Ortega')).status()).toBe(201);
    // A quotation in dollars the same week: the report labels each row's currency.
    expect((await quoteNewClient('USD', 'Dolores', 'Quintana')).status()).toBe(201);
    const rows = (await (
      await page.request.get(`/api/wsObtenerCotizacionesSemanales?idCorporativo=${corporate.id}`)
    ).json()) as { nombreUnidad: string; nombreCliente: string; escrituracion: number }[];
    expect(rows.length).toBeGreaterThanOrEqual(1);

    await page.goto(`/corporativos/${CORP}/desarrollos`);
    const button = page.getByRole('button', { name: 'Reporte de cotizaciones' });
    await expect(button).toBeVisible();
    await shot(page, 'report-button');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(
      `Reporte_Cotizaciones_${todayParts(corporate.zonaHoraria)}.csv`,
    );
    const path = `${OUT}/${download.suggestedFilename()}`;
    await download.saveAs(path);
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    const withDeed = rows.some((r) => r.escrituracion !== 0);
    expect(lines[0]).toBe(
      [
        'Fecha',
        'Asesor',
        'Cliente',
        'Desarrollo',
        'Cluster',
        'Unidad',
        'Prototipo',
        'Moneda',
        'Precio de lista',
        'Descuento',
        'Precio final',
        'Enganche',
        'Diferido',
        'Mensualidades',
        ...(withDeed ? ['Escrituración'] : []),
        'Contra entrega',
      ].join(','),
    );
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines.some((l) => l.includes(unit.nombre) && l.includes('Ramiro Ortega'))).toBe(true);
    expect(lines.find((l) => l.includes('Dolores Quintana'))).toContain(',USD,');
    expect(lines.find((l) => l.includes('Ramiro Ortega'))).toContain(',MXN,');

    // Headers in the user's language: the same report in English.
    const englishContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const manager = await englishContext.newPage();
      await manager.addInitScript(() => localStorage.setItem('vitrina:idioma', 'en'));
      await signIn(manager.request, 'gerente@vitrina.demo');
      await manager.goto(`/corporativos/${CORP}/desarrollos`);
      const [english] = await Promise.all([
        manager.waitForEvent('download'),
        manager.getByRole('button', { name: 'Quotes report' }).click(),
      ]);
      const englishPath = `${OUT}/en-${english.suggestedFilename()}`;
      await english.saveAs(englishPath);
      const header = readFileSync(englishPath).subarray(3).toString('utf8').split('\r\n')[0]!;
      expect(
        header.startsWith(
          'Date,Adviser,Client,Development,Cluster,Unit,Prototype,Currency,List price,Discount,Final price,Down payment,Deferred,Monthly payment,',
        ),
      ).toBe(true);
      expect(header.endsWith(',Upon delivery')).toBe(true);
    } finally {
      await englishContext.close();
    }

    // The adviser's role has no generarReporteCotizaciones: no button.
    const adviserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const adviser = await adviserContext.newPage();
      await signIn(adviser.request, 'asesor@vitrina.demo');
      await adviser.goto(`/corporativos/${CORP}/desarrollos`);
      await expect(
        adviser.getByRole('link', { name: 'Abrir Torre Alameda' }).first(),
      ).toBeVisible();
      await expect(adviser.getByRole('button', { name: 'Reporte de cotizaciones' })).toHaveCount(0);
      await shot(adviser, 'no-report-button');
    } finally {
      await adviserContext.close();
    }
  });
  test('an extra entered in pesos keeps its currency: quoted in USD it is converted at 18.5 on the page, on the extras page, on save and for the buyer; every breakdown adds up', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page.request, 'asesor@vitrina.demo');
    const { clusters } = await alameda(page.request);
    const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;
    expect(unit.status).toBe('Disponible');

    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await page
      .getByRole('group', { name: 'Esquemas' })
      .getByRole('radio', { name: /Financiamiento a entrega/ })
      .check();
    await page.getByRole('link', { name: 'Elegir opcionales y extras' }).click();
    await expect(page).toHaveURL(/cotizacion-adicionales/);
    await page.getByLabel('Concepto').fill('Cortinas');
    await page.getByLabel('Precio (MXN)').fill('50000');
    await page.getByRole('button', { name: 'Agregar extra' }).click();
    await expect(page.getByTestId('extra-price')).toHaveText(money(50_000));
    await page.getByRole('link', { name: 'Volver a la cotización' }).click();
    await expect(page).toHaveURL(/\/cotizacion\?/);
    const figures = page.getByTestId('quote-figures');
    const cortinasRow = page.getByTestId('quote-additions').getByRole('row', { name: /Cortinas/ });
    await expect(cortinasRow).toContainText(money(50_000));
    await expect(page.getByTestId('quote-extra')).toHaveText(`Cortinas (${money(50_000)})`);

    // Quoted in dollars: 50,000 MXN × 1 / 18.5 = 2,702.70 USD, shown in whole dollars. While
    // the dollar figures are computed, the peso ones stay whole: never labelled USD.
    await recordFigures(page);
    await page.getByLabel('Divisa', { exact: true }).selectOption('USD');
    await expect(page.getByTestId('quote-final-price')).toContainText('USD');
    await expect(cortinasRow).toContainText(/\$2,70[23] USD/);
    await expect(cortinasRow).not.toContainText('50,000');
    await expect(page.getByTestId('quote-extra')).toHaveText(
      /^Cortinas \(\$2,70[23] USD; capturado en \$50,000 MXN\)$/,
    );
    await expectFiguresAddUp(figures);
    await expectEachStateConsistent(page);
    const shownExtra = units(await cortinasRow.locator('td').last().textContent());

    // The extras page shows it converted too, and as entered.
    await page.getByRole('link', { name: 'Elegir opcionales y extras' }).click();
    await expect(page.getByTestId('extra-price')).toHaveText(
      /^\$2,70[23] USD \(capturado en \$50,000 MXN\)$/,
    );
    await shot(page, 'extras-usd');
    await page.getByRole('link', { name: 'Volver a la cotización' }).click();
    await expect(cortinasRow).toContainText(`$${shownExtra.toLocaleString('en-US')} USD`);

    // Saved for a new client: the server converts the extra from the currency it was entered in.
    await page.getByRole('radio', { name: 'Nuevo cliente' }).check();
    const actions = page.getByRole('region', { name: 'Acciones' });
    for (const label of ['Nombre', 'Apellidos', 'Correo electrónico', 'Teléfono']) {
      const box = (await actions.getByLabel(label).boundingBox())!;
      const panel = (await actions.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width - 16);
    }
    await actions.scrollIntoViewIfNeeded();
    await shot(page, 'save-new-client');
    await actions.getByLabel('Nombre').fill('Jorge');
    await actions.getByLabel('Apellidos').fill('Ramírez Extras');
    const [request, response] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && /\/cotizaciones$/.test(r.url())),
      page.waitForResponse(
        (r) => r.request().method() === 'POST' && /\/cotizaciones$/.test(r.url()),
      ),
      page.getByRole('button', { name: 'Guardar cotización' }).click(),
    ]);
    expect((request.postDataJSON() as { extras: unknown }).extras).toEqual([
      { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' },
    ]);
    expect(response.status()).toBe(201);
    const saved = (await response.json()) as {
      extras: unknown;
      adicionales: { nombre: string; monto: number }[];
      divisa: { codigo: string };
    };
    expect(saved.divisa.codigo).toBe('USD');
    expect(saved.extras).toEqual([{ nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' }]);
    expect(saved.adicionales).toEqual([{ tipo: 'extra', nombre: 'Cortinas', monto: 270_270 }]);
    await expect(page.getByText('Cotización guardada para Jorge Ramírez Extras')).toBeVisible();
    const finalShown = await page.getByTestId('quote-final-price').textContent();

    await page.getByRole('button', { name: 'Compartir' }).click();
    const shareUrl = (await page.getByTestId('share-link').getAttribute('href'))!;
    const buyerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const buyer = await buyerContext.newPage();
      await buyer.goto(shareUrl);
      const doc = buyer.getByTestId('public-quotation');
      await expect(doc.getByTestId('quote-final-price')).toHaveText(finalShown!);
      await expect(
        doc.getByTestId('quote-additions').getByRole('row', { name: /Cortinas/ }),
      ).toContainText(`$${shownExtra.toLocaleString('en-US')} USD`);
      await expectFiguresAddUp(doc.getByTestId('quote-figures'));
      // On a phone, an amount stays on one line with its currency; dates have no leading zero.
      const wrapped = await doc.locator('td[data-num], dd[data-testid]').evaluateAll((cells) =>
        cells
          .filter((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return lines.size > 1;
          })
          .map((cell) => cell.textContent),
      );
      expect(wrapped).toEqual([]);
      await expectNoSidewaysScroll(buyer);
      const validUntil = doc
        .locator('dt', { hasText: 'Vigente hasta' })
        .locator('xpath=following-sibling::dd[1]');
      await expect(validUntil).toHaveText(/^[1-9]\d? [a-z]{3,4}\.? \d{4}$/);
      await shot(buyer, 'public-usd-phone', true);
      await buyer.emulateMedia({ media: 'print' });
      await expectFiguresAddUp(doc.getByTestId('quote-figures'));
      await shot(buyer, 'print-usd', true);
    } finally {
      await buyerContext.close();
    }
  });

  test('a manual extra of $25,000.50 keeps its cents: on the extras page, the quotation, the client’s quotations, the saved quotation and the buyer’s page and print; every breakdown adds up to the cent', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { clusters } = await alameda(page.request);
    const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;
    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await page
      .getByRole('group', { name: 'Esquemas' })
      .getByRole('radio', { name: /Financiamiento a entrega/ })
      .check();
    await page.getByRole('link', { name: 'Elegir opcionales y extras' }).click();
    await page.getByLabel('Concepto').fill('Cocina integral');
    await page.getByLabel('Precio (MXN)').fill('25,000.50');
    await page.getByRole('button', { name: 'Agregar extra' }).click();
    await expect(page.getByTestId('extra-price')).toHaveText('$25,000.50 MXN');
    await page.getByRole('link', { name: 'Volver a la cotización' }).click();

    // A1602 is priced $14,900,000 by its prototype; this scheme has no discount.
    const figures = page.getByTestId('quote-figures');
    await expect(page.getByTestId('quote-extra')).toHaveText('Cocina integral ($25,000.50 MXN)');
    await expect(figures.getByTestId('quote-manual-extras')).toHaveText('+$25,000.50 MXN');
    await expect(
      figures.getByTestId('quote-additions').getByRole('row', { name: /Cocina integral/ }),
    ).toContainText('$25,000.50 MXN');
    await expect(figures.getByTestId('quote-final-price')).toHaveText('$14,925,000.50 MXN');
    // Every amount of that quotation to the cent, so its columns line up and add up as printed.
    const amounts = await figures.locator('td[data-num], dd').allTextContents();
    expect(amounts.filter((a) => a.includes('$') && !/\.\d{2} MXN$/.test(a))).toEqual([]);
    await expectFiguresAddUp(figures);
    await shot(page, 'extra-cents');

    await page.getByRole('radio', { name: 'Nuevo cliente' }).check();
    const actions = page.getByRole('region', { name: 'Acciones' });
    await actions.getByLabel('Nombre').fill('Cecilia');
    await actions.getByLabel('Apellidos').fill('Centavos Exactos');
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.request().method() === 'POST' && /\/cotizaciones$/.test(r.url()),
      ),
      page.getByRole('button', { name: 'Guardar cotización' }).click(),
    ]);
    expect(response.status()).toBe(201);
    const saved = (await response.json()) as {
      id: string;
      idLead: string;
      adicionales: { monto: number }[];
    };
    expect(saved.adicionales.map((a) => a.monto)).toEqual([2_500_050]);
    await page.getByRole('button', { name: 'Compartir' }).click();
    const shareUrl = (await page.getByTestId('share-link').getAttribute('href'))!;

    // The client's quotations and the saved quotation, as the adviser reads and prints them.
    await page.goto(`/corporativos/${CORP}/clientes/${saved.idLead}`);
    await expect(page.getByTestId('open-quotation')).toBeVisible();
    await expect(page.getByText('$14,925,000.50 MXN')).toBeVisible();
    await page.getByTestId('open-quotation').click();
    const detail = page.getByTestId('quotation-detail');
    await expect(detail.getByTestId('quote-manual-extras')).toHaveText('+$25,000.50 MXN');
    await expect(detail.getByTestId('quote-final-price')).toHaveText('$14,925,000.50 MXN');
    await expectFiguresAddUp(detail.getByTestId('quote-figures'));

    const buyerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const buyer = await buyerContext.newPage();
      await buyer.goto(shareUrl);
      const doc = buyer.getByTestId('public-quotation');
      await expect(
        doc.getByTestId('quote-additions').getByRole('row', { name: /Cocina integral/ }),
      ).toContainText('$25,000.50 MXN');
      await expect(doc.getByTestId('quote-final-price')).toHaveText('$14,925,000.50 MXN');
      await expectFiguresAddUp(doc.getByTestId('quote-figures'));
      await expectNoSidewaysScroll(buyer);
      await buyer.emulateMedia({ media: 'print' });
      await expect(doc.getByTestId('quote-manual-extras')).toHaveText('+$25,000.50 MXN');
      await shot(buyer, 'print-extra-cents', true);
    } finally {
      await buyerContext.close();
    }
  });

  test('the figures add up as shown: A1602 on 30/70 in pesos, 12 instalments under the $1,445,300 part', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { clusters } = await alameda(page.request);
    const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;
    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await page
      .getByRole('group', { name: 'Esquemas' })
      .getByRole('radio', { name: /30\/70/ })
      .check();
    const figures = page.getByTestId('quote-figures');
    await expect(figures.getByTestId('quote-final-price')).toHaveText(money(14_453_000));
    await expect(figures.locator('tr[data-part="mensualidades"]')).toContainText(money(1_445_300));
    // A1602, a penthouse, is priced by its prototype ($14,900,000, 3 % off: $14,453,000):
    // 12 × $120,441.67 = $1,445,300, so eight of the twelve show a peso more.
    await expect(figures.getByRole('heading', { name: /Mensualidades: 12 pagos/ })).toHaveText(
      `Mensualidades: 12 pagos, ${money(1_445_300)} en total`,
    );
    await expectFiguresAddUp(figures);
    const amounts = await figures
      .getByTestId('quote-instalments')
      .locator(`${INSTALMENT_ROWS} td:nth-child(3)`)
      .allTextContents();
    expect(amounts.filter((a) => a === money(120_442))).toHaveLength(8);
    expect(amounts.filter((a) => a === money(120_441))).toHaveLength(4);
    await figures.getByTestId('quote-instalments').scrollIntoViewIfNeeded();
    await shot(page, 'instalments-add-up');
  });

  test('extras that are not valid in the URL never reach the page', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { clusters } = await alameda(page.request);
    const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;
    const extras = JSON.stringify([
      { nombre: 'x', precio: -5 },
      { nombre: 'y', precio: 'mucho' },
      { nombre: 'z'.repeat(121), precio: 5 },
    ]);
    await page.goto(
      `${DEV_PATH}/cotizacion?unidad=${unit.id}&extras=${encodeURIComponent(extras)}`,
    );
    await expect(page.getByText('Sin opcionales ni extras.')).toBeVisible();
    await expect(page.getByTestId('quote-final-price')).toBeVisible();
    await expect(page.getByTestId('quote-extra')).toHaveCount(0);
    await expect(page.getByText('No fue posible calcular la cotización')).toHaveCount(0);
    await expect(page.getByText(/-\$5/)).toHaveCount(0);
    await shot(page, 'bad-extras');
  });

  test('on a phone, the save panel fits the screen with a long client in the list', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { corporate, clusters } = await alameda(page.request);
    const res = await page.request.post(`/api/corporativos/${corporate.id}/leads`, {
      data: {
        nombre: 'Maximiliano Bartolomé',
        apellidos: 'de la Fuente Villaseñor Castañeda',
        email: 'maximiliano.bartolome.delafuente.villasenor@correo-muy-largo.example.com',
      },
    });
    expect(res.status()).toBe(201);
    const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;
    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await page.getByRole('radio', { name: 'Elegir de mis clientes' }).check();
    const picker = page.getByRole('combobox', { name: 'Cliente', exact: true });
    await picker.fill('Maximiliano Bartolomé');
    await page.getByRole('option', { name: /^Maximiliano Bartolomé de la Fuente/ }).click();
    await expect(picker).toHaveValue('Maximiliano Bartolomé de la Fuente Villaseñor Castañeda');
    await expectNoSidewaysScroll(page);
    const box = (await picker.boundingBox())!;
    const panel = (await page.getByRole('region', { name: 'Acciones' }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    await page.getByRole('region', { name: 'Acciones' }).scrollIntoViewIfNeeded();
    await shot(page, 'save-phone-list');
    await page.getByRole('radio', { name: 'Nuevo cliente' }).check();
    await expectNoSidewaysScroll(page);
    await shot(page, 'save-phone-new');
  });

  test('a double click on "Guardar cotización" for a new client saves one client and one quotation', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { corporate, clusters } = await alameda(page.request);
    const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;
    // A name only: no email or phone for the server's duplicate check to catch a second client.
    const apellidos = `Doble Clic ${Date.now().toString(36)}`;
    // The save takes a moment, so the second click lands while the first is being saved.
    const posts: string[] = [];
    await page.route('**/cotizaciones', async (route) => {
      if (route.request().method() === 'POST') {
        posts.push(route.request().url());
        await new Promise((r) => setTimeout(r, 400));
      }
      await route.continue();
    });

    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await page
      .getByRole('group', { name: 'Esquemas' })
      .getByRole('radio', { name: /30\/70/ })
      .check();
    await expect(page.getByTestId('quote-final-price')).toBeVisible();
    const actions = page.getByRole('region', { name: 'Acciones' });
    await actions.getByRole('radio', { name: 'Nuevo cliente' }).check();
    await actions.getByLabel('Nombre').fill('Jimena');
    await actions.getByLabel('Apellidos').fill(apellidos);
    await actions.getByRole('button', { name: 'Guardar cotización' }).dblclick();
    await expect(page.getByText(`Cotización guardada para Jimena ${apellidos}`)).toBeVisible();
    await page.waitForTimeout(800);
    expect(posts).toHaveLength(1);

    // One client, with one quotation.
    const leads = (await (
      await page.request.get(
        `/api/wsObtenerLeads?idCorporativo=${corporate.id}&q=${encodeURIComponent(apellidos)}`,
      )
    ).json()) as { id: string; apellidos: string }[];
    expect(leads.map((l) => l.apellidos)).toEqual([apellidos]);
    const quotations = (await (
      await page.request.get(
        `/api/wsObtenerCotizacionesLocales?idCorporativo=${corporate.id}&idLead=${leads[0]!.id}`,
      )
    ).json()) as { idUnidad: string }[];
    expect(quotations.map((q) => q.idUnidad)).toEqual([unit.id]);
  });

  test('a new client who already is one of the adviser’s clients: said under the form, with the way to save to that client', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { corporate, clusters } = await alameda(page.request);
    const email = `repetida-${Date.now().toString(36)}@example.com`;
    const created = await page.request.post(`/api/corporativos/${corporate.id}/leads`, {
      data: { nombre: 'Renata', apellidos: 'Repetida', email },
    });
    expect(created.status()).toBe(201);
    const existing = ((await created.json()) as { id: string }).id;
    const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;

    await page.goto(`${DEV_PATH}/cotizacion?unidad=${unit.id}`);
    await expect(page.getByTestId('quote-final-price')).toBeVisible();
    const actions = page.getByRole('region', { name: 'Acciones' });
    await actions.getByRole('radio', { name: 'Nuevo cliente' }).check();
    await actions.getByLabel('Nombre').fill('Renata');
    await actions.getByLabel('Correo electrónico').fill(email.toUpperCase());
    await actions.getByRole('button', { name: 'Guardar cotización' }).click();
    const notice = actions.getByTestId('save-duplicate');
    await expect(notice).toContainText('Esta persona ya es uno de tus clientes.');
    await expect(notice.getByRole('link', { name: 'Ver cliente' })).toHaveAttribute(
      'href',
      new RegExp(`/clientes/${existing}$`),
    );
    await shot(page, 'save-duplicate');
    // Saved to that client instead: one client, the quotation on it.
    await notice.getByRole('button', { name: 'Guardar en ese cliente' }).click();
    await expect(actions.getByRole('radio', { name: 'Elegir de mis clientes' })).toBeChecked();
    await expect(actions.getByRole('combobox', { name: 'Cliente', exact: true })).toHaveValue(
      'Renata Repetida',
    );
    await expect(notice).toBeHidden();
    await actions.getByRole('button', { name: 'Guardar cotización' }).click();
    await expect(page.getByText('Cotización guardada para Renata Repetida')).toBeVisible();
    const quotations = (await (
      await page.request.get(
        `/api/wsObtenerCotizacionesLocales?idCorporativo=${corporate.id}&idLead=${existing}`,
      )
    ).json()) as { idUnidad: string }[];
    expect(quotations.map((q) => q.idUnidad)).toEqual([unit.id]);
  });
});
