/**
 * Issue 19, the first-time walk's defects on these screens: a saved quotation opened again from
 * its client (defect 2: scheme, extras, figures, favourite, share, print); the availability
 * filters' count and range messages (defect 3); a deleted pinned client forgotten (defect 7);
 * the administrator's legal data printed on quotations. Each screen at 1280, 820 and 390 px in
 * Spanish and English, looked at and axe-clean (serious and critical).
 */
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { axeViolations } from './support/axe';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const SHOTS = 'tests/e2e/__screenshots__';
const LANGUAGE_KEY = 'vitrina:idioma';
const WIDTHS = [1280, 820, 390] as const;
type Lang = 'es' | 'en';

test.describe.configure({ mode: 'serial' });
// Each test walks three widths in two languages.
test.setTimeout(240_000);

async function signIn(request: APIRequestContext, email = 'asesor@vitrina.demo') {
  const res = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
}

async function contextFor(browser: Browser, lang: Lang, width: number, email?: string) {
  const context = await browser.newContext({
    locale: lang === 'es' ? 'es-MX' : 'en-US',
    viewport: { width, height: width < 600 ? 844 : 800 },
  });
  await context.addInitScript(
    ([key, value]) => localStorage.setItem(key!, value!),
    [LANGUAGE_KEY, lang],
  );
  if (email) await signIn(context.request, email);
  return context;
}

interface Saved {
  corpId: string;
  leadId: string;
  quotationId: string;
  numero: number;
  unitId: string;
}

/** A quotation with an optional and a manual extra, saved by the adviser for a new client. */
async function saveQuotation(browser: Browser, client: string): Promise<Saved> {
  const context = await browser.newContext();
  try {
    const request = context.request;
    await signIn(request);
    const corp = (await (await request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json()) as {
      id: string;
    };
    const dev = (await (
      await request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=${DEV}`)
    ).json()) as { id: string; opcionales: { id: string; nombre: string; idCluster?: string }[] };
    const clusters = (await (
      await request.get(`/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`)
    ).json()) as { id: string; nombre: string; unidades: { id: string; status?: string }[] }[];
    const torreA = clusters.find((c) => c.nombre === 'Torre A')!;
    const unit = torreA.unidades.find((u) => u.status === 'Disponible')!;
    const schemes = (await (
      await request.get(
        `/api/wsObtenerEsquemasPago?idCorporativo=${corp.id}&idDesarrollo=${dev.id}&idCluster=${torreA.id}`,
      )
    ).json()) as { id: string; nombre: string }[];
    const bodega = dev.opcionales.find((o) => o.nombre === 'Bodega')!;
    const res = await request.post(`/api/corporativos/${corp.id}/cotizaciones`, {
      data: {
        idUnidad: unit.id,
        idEsquema: schemes.find((s) => s.nombre === '30/70')!.id,
        divisa: 'MXN',
        opcionales: [bodega.id],
        extras: [{ nombre: 'Cortinas', precio: 25_000 }],
        nuevoLead: { nombre: client, apellidos: 'Detalle', email: `${client}@example.com` },
      },
    });
    expect(res.status()).toBe(201);
    const q = (await res.json()) as { id: string; idLead: string; numero: number };
    return {
      corpId: corp.id,
      leadId: q.idLead,
      quotationId: q.id,
      numero: q.numero,
      unitId: unit.id,
    };
  } finally {
    await context.close();
  }
}

const folioOf = (n: number) => `COT-${String(n).padStart(6, '0')}`;

test('a saved quotation opens from its client: scheme, optionals and extras apart, figures, favourite, share and print', async ({
  browser,
}) => {
  const saved = await saveQuotation(browser, 'Abierta');
  const context = await contextFor(browser, 'es', 1280, 'asesor@vitrina.demo');
  const page = await context.newPage();
  await page.goto(`/corporativos/${CORP}/clientes/${saved.leadId}`);
  const open = page.getByTestId('open-quotation');
  await expect(open).toContainText(folioOf(saved.numero));
  await open.click();
  await expect(page).toHaveURL(
    `/corporativos/${CORP}/clientes/${saved.leadId}/cotizaciones/${saved.quotationId}`,
  );
  const detail = page.getByTestId('quotation-detail');
  await expect(detail.getByTestId('quotation-folio')).toHaveText(
    `Cotización ${folioOf(saved.numero)}`,
  );
  await expect(detail.getByRole('heading', { name: 'Esquema de pago 30/70' })).toBeVisible();
  await expect(detail.getByTestId('quote-additions')).toContainText('Bodega');
  await expect(detail.getByTestId('quote-additions')).toContainText('Cortinas');
  // The manual extra is its own line of the summary, not counted under Opcionales (defect 9).
  await expect(detail.getByTestId('quote-manual-extras')).toHaveText('+$25,000 MXN');
  await expect(detail.getByTestId('quote-extras')).not.toHaveText('+$25,000 MXN');
  expect(await page.title()).toMatch(/^Cotización del cliente/);

  // Favourite: shown and toggled, and the client's list shows it.
  const star = detail.getByRole('button', { name: 'Favorita' });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  // From the keyboard: the button keeps the focus while its request runs and after it.
  await star.focus();
  await page.keyboard.press('Enter');
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await expect(star).toBeFocused();
  await expect(detail.getByTestId('quotation-favourite')).toBeVisible();

  // Share: a link for the buyer.
  const share = detail.getByRole('button', { name: 'Compartir' });
  await share.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('share-link')).toHaveAttribute('href', /\/public\/cotizacion\//);
  await expect(share).toBeFocused();

  // Print: the quotation alone, on the paper chosen.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation').first()).toBeHidden();
  await expect(detail.getByTestId('quotation-signatures')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  const pdf = await page.pdf({ preferCSSPageSize: true });
  expect(pdf.byteLength).toBeGreaterThan(10_000);

  await page.getByRole('link', { name: 'Volver al cliente' }).click();
  await expect(page.getByTestId('open-quotation').first()).toBeVisible();
  await expect(page.getByTestId('quotation-favourite').first()).toBeVisible();
  await context.close();

  for (const lang of ['es', 'en'] as const) {
    for (const width of WIDTHS) {
      const ctx = await contextFor(browser, lang, width, 'asesor@vitrina.demo');
      const p = await ctx.newPage();
      await p.goto(
        `/corporativos/${CORP}/clientes/${saved.leadId}/cotizaciones/${saved.quotationId}`,
      );
      await expect(p.getByTestId('quote-figures')).toBeVisible();
      expect(await axeViolations(p, { seriousOnly: true })).toEqual([]);
      const overflow = await p.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      await p.screenshot({
        path: `${SHOTS}/quotation-detail-${lang}-${width}.png`,
        fullPage: width === 390,
      });
      const wide = await p.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth)
          .slice(0, 5)
          .map((el) => `${el.tagName}.${el.className} ${el.getBoundingClientRect().right}`),
      );
      expect(overflow, `${lang} ${width}: ${wide.join(' | ')}`).toBeLessThanOrEqual(0);
      await ctx.close();
    }
  }
});

test('a quotation of another client, or unknown, is not found on the detail', async ({
  browser,
}) => {
  const saved = await saveQuotation(browser, 'Ajena');
  const context = await contextFor(browser, 'es', 1280, 'asesor@vitrina.demo');
  const page = await context.newPage();
  await page.goto(`/corporativos/${CORP}/clientes/${saved.leadId}/cotizaciones/nope`);
  await expect(page.getByRole('heading', { name: 'No se encontró la cotización' })).toBeVisible();
  await context.close();
});

test('the filters say how many match and how many more only lack a visible price; bad ranges get a message', async ({
  browser,
}) => {
  for (const lang of ['es', 'en'] as const) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width, 'asesor@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`/corporativos/${CORP}/desarrollos/${DEV}/disponibilidad`);
      if (width < 1024) {
        await page
          .getByRole('button', { name: lang === 'es' ? /Filtros/ : /Filters/ })
          .first()
          .click();
      }
      const price = lang === 'es' ? 'Precio' : 'Price';
      const group = page.getByRole('group', { name: new RegExp(`^${price}`) });
      const [lo, hi] = [group.getByRole('textbox').nth(0), group.getByRole('textbox').nth(1)];
      await lo.fill('4000000');
      await hi.fill('6000000');
      const status = page.getByRole('status').filter({
        hasText: lang === 'es' ? /coincide/ : /match/,
      });
      await expect(status).toContainText(
        lang === 'es' ? /; \d+ más sin precio visible$/ : /; \d+ more without a visible price$/,
      );
      // A minimum over the maximum, and letters, are said under the range.
      await lo.fill('7000000');
      await expect(group.getByTestId('range-problem')).toHaveText(
        lang === 'es'
          ? 'El mínimo es mayor que el máximo.'
          : 'The minimum is greater than the maximum.',
      );
      await expect(lo).toHaveAttribute('aria-invalid', 'true');
      const notNumber =
        lang === 'es'
          ? 'Escribe solo números, sin letras; los miles con coma (3,000,000).'
          : 'Type numbers only, no letters; thousands with commas (3,000,000).';
      await lo.fill('4M');
      await expect(group.getByTestId('range-problem')).toHaveText(notNumber);
      // Thousands written with dots are not a number here: the message says how to write them.
      await lo.fill('3.000.000');
      await expect(group.getByTestId('range-problem')).toHaveText(notNumber);
      await group.scrollIntoViewIfNeeded();
      // The panel (the grid's dimmed cells, those filtered out, are not this screen's).
      expect(
        await axeViolations(page, {
          seriousOnly: true,
          include: `form[aria-label="${lang === 'es' ? 'Filtros' : 'Filters'}"]`,
        }),
      ).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/filters-range-${lang}-${width}.png` });
      await lo.fill('');
      await hi.fill('');
      await context.close();
    }
  }
});

test('a deleted pinned client is forgotten: the quotation page stops asking for it', async ({
  browser,
}) => {
  const saved = await saveQuotation(browser, 'Fijada');
  const context = await contextFor(browser, 'es', 1280, 'asesor@vitrina.demo');
  await context.addInitScript(
    ([key, value]) => {
      if (!sessionStorage.getItem('pinned-once')) {
        localStorage.setItem(key!, value!);
        sessionStorage.setItem('pinned-once', '1');
      }
    },
    ['lead-id', saved.leadId],
  );
  const page = await context.newPage();
  const deleted = await page.request.delete(
    `/api/corporativos/${saved.corpId}/leads/${saved.leadId}`,
  );
  expect(deleted.status()).toBeLessThan(300);
  const notFound: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404 && r.url().includes(saved.leadId)) notFound.push(r.url());
  });
  // The quotation page of a unit asks for the pinned client to save to.
  const quotePage = `/corporativos/${CORP}/desarrollos/${DEV}/cotizacion?unidad=${saved.unitId}`;
  await page.goto(quotePage);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lead-id'))).toBe(null);
  const asked = notFound.length;
  expect(asked).toBeLessThanOrEqual(1);
  await page.reload();
  await page.goto(`/corporativos/${CORP}/clientes`);
  await page.goto(quotePage);
  await expect(page.getByRole('button', { name: 'Guardar cotización' })).toBeVisible();
  expect(notFound.length).toBe(asked);
  await context.close();
});

test("the administrator sets the developer's legal data from the settings", async ({ browser }) => {
  for (const lang of ['es', 'en'] as const) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width, 'admin@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`/corporativos/${CORP}/datos-legales`);
      const name = page.getByLabel(lang === 'es' ? 'Razón social' : 'Legal name');
      await expect(name).toHaveValue(/Grupo Horizonte/);
      if (lang === 'es' && width === 1280) {
        await name.fill('Grupo Horizonte Desarrollos, S.A. de C.V.');
        await page.getByRole('button', { name: 'Guardar' }).click();
        await expect(page.getByText('Datos legales guardados')).toBeVisible();
      }
      expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/legal-data-${lang}-${width}.png` });
      await context.close();
    }
  }
  // The adviser is told it is the administrator's.
  const context = await contextFor(browser, 'es', 1280, 'asesor@vitrina.demo');
  const page = await context.newPage();
  await page.goto(`/corporativos/${CORP}/datos-legales`);
  await expect(
    page.getByText('Solo la administración del corporativo cambia los datos legales.'),
  ).toBeVisible();
  await context.close();
});

test('the public simulator without a unit offers the units with a public price', async ({
  browser,
}) => {
  for (const lang of ['es', 'en'] as const) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width);
      const page = await context.newPage();
      await page.goto(`/public/corporativos/${CORP}/desarrollos/${DEV}/cotizacion`);
      const pick = page.getByTestId('simulator-pick-unit');
      await expect(pick).toBeVisible();
      await expect(pick).not.toContainText(
        lang === 'es' ? 'No se encontró la unidad' : 'Unit not found',
      );
      const select = pick.getByRole('combobox');
      expect(await select.locator('option').count()).toBeGreaterThan(10);
      expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/simulator-pick-unit-${lang}-${width}.png` });
      if (lang === 'es' && width === 1280) {
        const first = await select.locator('option').nth(1).getAttribute('value');
        await select.selectOption(first ?? '');
        await expect(page).toHaveURL(new RegExp(`unidad=${first}`));
        await expect(page.getByTestId('quote-figures')).toBeVisible();
      }
      await context.close();
    }
  }
});
