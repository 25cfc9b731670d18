import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * The chat assistant (issue 18) in Chromium: the bubble shows only when the general
 * configuration and the corporate both turn the chat on; a question to the built-in inventory
 * assistant gets unit cards whose links open the unit; a malicious webhook reply (script,
 * onerror, javascript: link, SVG, iframe, styles) runs nothing and calls no foreign host; the
 * panel stays locked while a reply is pending; Escape closes and gives focus back. Screenshots
 * at 1280, 820 and 390 px in es and en, axe clean.
 */
const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const SHOTS = 'tests/e2e/__screenshots__';

async function signedIn(
  browser: Browser,
  email: string,
  options: { width?: number; language?: 'es' | 'en' } = {},
): Promise<BrowserContext> {
  const width = options.width ?? 1280;
  const context = await browser.newContext({
    viewport: { width, height: width < 500 ? 844 : 900 },
  });
  if (options.language)
    await context.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), options.language);
  const res = await context.request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

async function corporateId(context: BrowserContext): Promise<string> {
  const res = await context.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`);
  return ((await res.json()) as { id: string }).id;
}

async function chatSettings(
  context: BrowserContext,
  id: string,
  body: { mostrarChat: boolean; asistenteChat: 'inventario' | 'webhook' },
) {
  const res = await context.request.put(`/api/corporativos/${id}/config-chat`, {
    data: { ...body, mensajeBienvenidaChat: {} },
  });
  expect(res.status()).toBe(200);
}

const MALICIOUS = [
  '<p>Hola, <strong>estas</strong> son <em>opciones</em>:</p>',
  '<ul><li>Torre Alameda</li><li><code>A101</code></li></ul>',
  '<script>window.__pwned = "script"; alert(1)</script>',
  '<img src="http://evil.example/pixel.png" onerror="window.__pwned=\'img\'; alert(2)">',
  '<a href="javascript:window.__pwned=\'link\'">clic aquí</a>',
  '<svg onload="window.__pwned=\'svg\'"><script>alert(3)</script></svg>',
  '<math><mi xlink:href="javascript:alert(4)">x</mi></math>',
  '<iframe src="http://evil.example/frame"></iframe>',
  '<p style="background:url(http://evil.example/bg.png)" onclick="alert(5)">estilo</p>',
  '<a href="https://example.com/folleto">Folleto</a> <a href="mailto:ventas@example.com">Escríbenos</a>',
].join('');

/** A webhook on loopback: answers `reply`, after `gate` when one is set. */
function fakeWebhook() {
  let reply = MALICIOUS;
  let gate: Promise<void> | null = null;
  let count = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      const answer = () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ output: reply }));
      };
      if (gate) void gate.then(answer);
      else answer();
    });
  });
  return {
    get count() {
      return count;
    },
    setReply: (html: string) => (reply = html),
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`),
        ),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('the bubble shows only when the general configuration and the corporate both turn the chat on', async ({
  browser,
}) => {
  const admin = await signedIn(browser, 'admin@vitrina.demo');
  const id = await corporateId(admin);
  const adviser = await signedIn(browser, 'asesor@vitrina.demo');
  const page = await adviser.newPage();
  try {
    // Both on (the demo): the bubble is a real button.
    await page.goto(`/corporativos/${CORP}/desarrollos`);
    await expect(page.getByRole('button', { name: 'Abrir el asistente' })).toBeVisible();

    // The corporate's switch off: no bubble.
    await chatSettings(admin, id, { mostrarChat: false, asistenteChat: 'inventario' });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Configuraciones' })).toBeVisible();
    await expect(page.getByTestId('chat-bubble')).toHaveCount(0);
    await chatSettings(admin, id, { mostrarChat: true, asistenteChat: 'inventario' });

    // The general configuration's switch off: no bubble either.
    await page.route('**/api/wsObtenerConfiguracionesGenerales', (route) =>
      route.fulfill({
        json: { urlMappenChat: '/api/chat', mostrarMappenChat: false, version: '0.1.0' },
      }),
    );
    await page.reload();
    await expect(page.getByRole('button', { name: 'Configuraciones' })).toBeVisible();
    await expect(page.getByTestId('chat-bubble')).toHaveCount(0);
    await page.unroute('**/api/wsObtenerConfiguracionesGenerales');
    await page.reload();
    await expect(page.getByTestId('chat-bubble')).toBeVisible();
  } finally {
    await chatSettings(admin, id, { mostrarChat: true, asistenteChat: 'inventario' });
    await adviser.close();
    await admin.close();
  }
});

test('the bubble leaves the quotation readable: at 1280, 820 and 390 px the last rows scroll clear of it, and from 820 px up no amount is ever under it', async ({
  browser,
}) => {
  /** What of the page is under the bubble: cells, figures and controls, by their text. */
  const underBubble = (page: Page, selector: string) =>
    page.evaluate((sel) => {
      const b = document.querySelector('[data-testid="chat-bubble"]')!.getBoundingClientRect();
      return [...document.querySelectorAll(sel)]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom;
        })
        .map((el) => (el.textContent ?? '').trim() || el.outerHTML.slice(0, 60));
    }, selector);
  for (const width of [1280, 820, 390]) {
    const context = await signedIn(browser, 'asesor@vitrina.demo', { width });
    try {
      const page = await context.newPage();
      const corp = await corporateId(context);
      const dev = (await (
        await context.request.get(
          `/api/wsObtenerDesarrollo?idCorporativo=${corp}&slug=torre-alameda`,
        )
      ).json()) as { id: string };
      const clusters = (await (
        await context.request.get(
          `/api/wsObtenerClusters?idCorporativo=${corp}&idDesarrollo=${dev.id}`,
        )
      ).json()) as { unidades: { id: string; nombre: string }[] }[];
      const unit = clusters.flatMap((c) => c.unidades).find((u) => u.nombre === 'A1602')!;
      await page.goto(
        `/corporativos/${CORP}/desarrollos/torre-alameda/cotizacion?unidad=${unit.id}`,
      );
      await page
        .getByRole('group', { name: 'Esquemas' })
        .getByRole('radio', { name: /30\/70/ })
        .check();
      await expect(page.getByTestId('quote-instalments')).toBeVisible();
      await expect(page.getByTestId('chat-bubble')).toBeVisible();
      // The page's end: its last rows and buttons sit above the bubble, not under it.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect
        .poll(() => underBubble(page, 'main td, main th, main dd, main button, main a, main input'))
        .toEqual([]);
      await page.screenshot({ path: `${SHOTS}/chat-quotation-end-${width}.png` });
      if (width < 820) continue;
      // From tablet width up, the content keeps the bubble's strip: wherever the page is
      // scrolled, no amount of the figures is under it.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += 150) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        expect(
          await underBubble(page, '[data-testid="quote-figures"] :is(td, th, dd)'),
          `scrolled to ${y}`,
        ).toEqual([]);
      }
    } finally {
      await context.close();
    }
  }
});

test('a question gets unit cards whose links open the unit; Escape closes and focus returns to the bubble', async ({
  browser,
}) => {
  const adviser = await signedIn(browser, 'asesor@vitrina.demo');
  const page = await adviser.newPage();
  await page.goto(`/corporativos/${CORP}/desarrollos`);
  const bubble = page.getByRole('button', { name: 'Abrir el asistente' });
  await bubble.click();
  const panel = page.getByRole('dialog', { name: 'Asistente' });
  await expect(panel).toBeVisible();
  const input = panel.getByRole('textbox', { name: 'Escribe tu pregunta' });
  // Focus moves into the panel.
  await expect(input).toBeFocused();
  await expect(panel.getByRole('log')).toContainText('¡Hola! Soy el asistente de Grupo Horizonte');

  // Empty or blank: nothing is sent.
  await input.fill('   ');
  await input.press('Enter');
  await expect(panel.getByTestId('chat-user-message')).toHaveCount(0);

  await input.fill('departamentos de 2 recámaras en Torre Alameda por menos de 5 millones');
  // What it will search for, read by the core worker while the user types.
  await expect(panel.getByTestId('chat-understood')).toHaveText(
    'Buscaré: departamentos · 2 rec. · hasta $5,000,000 MXN · Torre Alameda',
  );
  await input.press('Enter');
  await expect(panel.getByTestId('chat-understood')).toHaveCount(0);
  await expect(panel.getByTestId('chat-user-message')).toHaveText(
    /departamentos de 2 recámaras en Torre Alameda/,
  );
  const cards = panel.getByTestId('chat-unit-card');
  await expect(cards.first()).toBeVisible();
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(3);
  await expect(panel.getByRole('heading', { name: /Torre Alameda · \d+ unidad/ })).toBeVisible();
  await expect(panel.getByRole('log')).toContainText(/Encontré \d+ unidad/);
  // One development: 'en 1 desarrollo', not 'en 1 desarrollos' (an outside walk's find).
  await expect(panel.getByRole('log')).not.toContainText('1 desarrollos');
  await expect(panel.getByRole('log')).toContainText(
    /en 1 desarrollo\. Te muestro hasta 3:|Encontré 1 unidad disponible\./,
  );
  const first = cards.first();
  await expect(first).toContainText('2 rec.');
  // The cheapest first when no order is asked.
  const prices = await cards.locator('strong + span').allTextContents();
  const amounts = prices.map((p) => Number(p.replace(/[^\d]/g, '')));
  expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
  const unitName = (await first.locator('strong').textContent())!.trim();
  await expect(
    first.getByRole('link', { name: `Cotizar la unidad ${unitName} de Torre Alameda` }),
  ).toHaveAttribute(
    'href',
    /\/corporativos\/grupo-horizonte\/desarrollos\/torre-alameda\/cotizacion\?unidad=/,
  );
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/chat-inventory-es-1280.png` });
  expect(await axeViolations(page)).toEqual([]);

  // Not understood: the filters it can use.
  await input.fill('¿tienen alberca?');
  await input.press('Enter');
  await expect(panel.getByRole('log')).toContainText('No entendí la pregunta');
  await expect(panel.getByRole('log')).toContainText('cajones de estacionamiento');

  // Escape closes, focus back on the bubble; the conversation is kept.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(bubble).toBeFocused();
  await bubble.click();
  await expect(input).toBeFocused();

  // The card's link opens the unit in the availability page; the panel stays with its answer.
  await first.getByRole('link', { name: `Ver la unidad ${unitName} de Torre Alameda` }).click();
  await expect(page).toHaveURL(
    /\/desarrollos\/torre-alameda\/disponibilidad\?unidad=[\w-]+&s=caracteristicas/,
  );
  await expect(page.getByRole('region', { name: `Unidad ${unitName}` })).toBeVisible();
  await expect(page.getByTestId('chat-unit-card').first()).toBeVisible();
  // Escape in the panel closes the panel only: the unit stays open.
  await input.focus();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(page.getByRole('region', { name: `Unidad ${unitName}` })).toBeVisible();
  await adviser.close();
});

test('a malicious webhook reply runs nothing and calls no foreign host; the panel stays locked while a reply is pending', async ({
  browser,
}) => {
  const hook = fakeWebhook();
  const url = await hook.start();
  const admin = await signedIn(browser, 'admin@vitrina.demo');
  const id = await corporateId(admin);
  const set = await admin.request.post('/__test__/chat-webhook', { data: { url } });
  expect(set.status()).toBe(200);
  await chatSettings(admin, id, { mostrarChat: true, asistenteChat: 'webhook' });
  const adviser = await signedIn(browser, 'asesor@vitrina.demo');
  const page = await adviser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const foreign: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).hostname !== '127.0.0.1') foreign.push(r.url());
  });
  try {
    await page.goto(`/corporativos/${CORP}/desarrollos`);
    await page.getByRole('button', { name: 'Abrir el asistente' }).click();
    const panel = page.getByRole('dialog', { name: 'Asistente' });
    const input = panel.getByRole('textbox', { name: 'Escribe tu pregunta' });
    const send = panel.getByRole('button', { name: 'Enviar' });

    // Locked while the webhook holds its reply: a second send does nothing.
    const release = hook.hold();
    await input.fill('¿Qué me recomiendas?');
    await send.click();
    await expect(send).toBeDisabled();
    // The focus went back to the question, not to the page (the button is disabled).
    await expect(input).toBeFocused();
    await expect(panel.getByTestId('chat-typing')).toBeVisible();
    await expect(panel.getByRole('log')).toHaveAttribute('aria-busy', 'true');
    await input.fill('otra pregunta');
    await input.press('Enter');
    await expect(panel.getByTestId('chat-user-message')).toHaveCount(1);
    await page.waitForTimeout(300);
    expect(hook.count).toBe(1);
    await page.screenshot({ path: `${SHOTS}/chat-locked-es-1280.png` });
    release();

    const html = panel.getByTestId('chat-html');
    await expect(html).toContainText('estas son opciones');
    await expect(send).toBeEnabled();
    await expect(panel.getByRole('log')).toHaveAttribute('aria-busy', 'false');
    // Only the allow-list is left.
    await expect(
      html.locator('script, img, svg, math, iframe, [style], [onclick], [onerror]'),
    ).toHaveCount(0);
    await expect(html.locator('strong')).toHaveText('estas');
    await expect(html.locator('li')).toHaveCount(2);
    const links = html.locator('a[href]');
    await expect(links).toHaveCount(2);
    await expect(links.nth(0)).toHaveAttribute('href', 'https://example.com/folleto');
    await expect(links.nth(0)).toHaveAttribute('target', '_blank');
    await expect(links.nth(0)).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(links.nth(1)).toHaveAttribute('href', 'mailto:ventas@example.com');
    // The javascript: link is left as its text.
    await expect(html).toContainText('clic aquí');
    await page.waitForTimeout(500);
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/chat-webhook-es-1280.png` });
    expect(await axeViolations(page)).toEqual([]);

    // The webhook failing: the spec's message, the panel unlocked.
    await hook.stop();
    await input.fill('¿sigues ahí?');
    await send.click();
    await expect(panel.getByText('Error al conectar con el bot')).toBeVisible();
    await expect(send).toBeEnabled();
  } finally {
    await chatSettings(admin, id, { mostrarChat: true, asistenteChat: 'inventario' });
    await admin.request.post('/__test__/chat-webhook', { data: { url: null } });
    await hook.stop().catch(() => undefined);
    await adviser.close();
    await admin.close();
  }
});

for (const language of ['es', 'en'] as const) {
  for (const width of [1280, 820, 390]) {
    test(`screenshots: the panel with an answer, ${language} ${width} px`, async ({ browser }) => {
      const adviser = await signedIn(browser, 'asesor@vitrina.demo', { width, language });
      const page = await adviser.newPage();
      await page.goto(`/corporativos/${CORP}/desarrollos`);
      const open = language === 'es' ? 'Abrir el asistente' : 'Open the assistant';
      await page.getByRole('button', { name: open }).click();
      const panel = page.getByRole('dialog', {
        name: language === 'es' ? 'Asistente' : 'Assistant',
      });
      const input = panel.getByRole('textbox', {
        name: language === 'es' ? 'Escribe tu pregunta' : 'Type your question',
      });
      await input.fill(
        language === 'es' ? 'lo más barato con 3 recámaras' : 'cheapest 3 bedrooms under 400k usd',
      );
      await input.press('Enter');
      await expect(panel.getByTestId('chat-unit-card').first()).toBeVisible();
      // The panel fits the screen: nothing wider than the viewport.
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SHOTS}/chat-panel-${language}-${width}.png` });
      expect(await axeViolations(page)).toEqual([]);
      await page
        .getByRole('button', { name: language === 'es' ? 'Cerrar' : 'Close', exact: true })
        .click();
      await expect(panel).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/chat-bubble-${language}-${width}.png` });
      await adviser.close();
    });
  }
}

test('the administrator turns the chat off and on and writes the welcome message in the settings', async ({
  browser,
}) => {
  const admin = await signedIn(browser, 'admin@vitrina.demo');
  const id = await corporateId(admin);
  const page = await admin.newPage();
  try {
    await page.goto(`/corporativos/${CORP}/desarrollos`);
    await page.getByRole('button', { name: 'Configuraciones' }).click();
    await page.getByRole('link', { name: 'Asistente de chat' }).click();
    await expect(page).toHaveURL(/\/corporativos\/grupo-horizonte\/asistente$/);
    await expect(page.getByRole('heading', { name: 'Asistente de chat' })).toBeVisible();
    await page.getByLabel('Mensaje de bienvenida (español)').fill('¡Bienvenido a Grupo Horizonte!');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Configuración del asistente guardada')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/chat-settings-es-1280.png` });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Abrir el asistente' }).click();
    await expect(page.getByRole('dialog', { name: 'Asistente' })).toContainText(
      '¡Bienvenido a Grupo Horizonte!',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('checkbox', { name: 'Mostrar el asistente de chat' }).uncheck();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByTestId('chat-bubble')).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Mostrar el asistente de chat' }).check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByTestId('chat-bubble')).toBeVisible();
  } finally {
    const res = await admin.request.put(`/api/corporativos/${id}/config-chat`, {
      data: { mostrarChat: true, asistenteChat: 'inventario', mensajeBienvenidaChat: {} },
    });
    expect(res.status()).toBe(200);
    await admin.close();
  }
});
