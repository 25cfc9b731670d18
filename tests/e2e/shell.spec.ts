import { expect, test, type Page } from '@playwright/test';

const PASSWORD = 'Vitrina2026!';
const shots = 'tests/e2e/__screenshots__';

async function signIn(page: Page, email: string, path = '/login') {
  await page.goto(path);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

const accounts: { email: string; lands: string; title: RegExp }[] = [
  {
    email: 'admin@vitrina.demo',
    lands: '/corporativos/grupo-horizonte',
    title: /Panel \| Grupo Horizonte/,
  },
  {
    email: 'gerente@vitrina.demo',
    lands: '/corporativos/grupo-horizonte',
    title: /Panel \| Grupo Horizonte/,
  },
  {
    email: 'asesor@vitrina.demo',
    lands: '/corporativos/grupo-horizonte',
    title: /Panel \| Grupo Horizonte/,
  },
  {
    email: 'asesor2@vitrina.demo',
    lands: '/corporativos/grupo-horizonte',
    title: /Panel \| Grupo Horizonte/,
  },
  {
    email: 'hostess@vitrina.demo',
    lands: '/corporativos/grupo-horizonte/eventos',
    title: /Panel \| Grupo Horizonte/,
  },
  {
    email: 'broker@vitrina.demo',
    lands: '/corporativos/grupo-horizonte',
    title: /Panel \| Grupo Horizonte/,
  },
  {
    email: 'asesor.pacifico@vitrina.demo',
    lands: '/corporativos/desarrollos-pacifico',
    title: /Panel \| Desarrollos Pacífico/,
  },
];

test.describe('sign in, land, reload, sign out', () => {
  for (const account of accounts) {
    test(`${account.email} lands on ${account.lands}`, async ({ page }) => {
      await signIn(page, account.email);
      await expect(page).toHaveURL(account.lands);
      await expect(page.getByTestId('page-title')).toHaveText(account.title);
      const name = account.email.split('@')[0]!;
      await page.screenshot({ path: `${shots}/landing-${name}.png`, fullPage: true });

      // Reload stays signed in, on the same page.
      await page.reload();
      await expect(page).toHaveURL(account.lands);
      await expect(page.getByTestId('page-title')).toHaveText(account.title);
      expect(await page.evaluate(() => localStorage.getItem('vitrina:auth'))).not.toBeNull();

      // Sign out clears everything: the server session, the stored auth item, the screen.
      await page
        .getByRole('navigation', { name: 'Navegación principal' })
        .getByRole('button', { name: 'Cerrar sesión' })
        .click();
      await expect(page.getByTestId('logout-loading')).toBeVisible();
      await expect(page).toHaveURL('/login');
      await expect(page.getByTestId('logout-loading')).toBeHidden();
      expect(await page.evaluate(() => localStorage.getItem('vitrina:auth'))).toBeNull();
      // The session check answers a signed-out visitor null (no 401 logged on public pages).
      const check = await page.request.get('/api/auth/session');
      expect(check.status()).toBe(200);
      expect(await check.json()).toBeNull();
      // The protected page now shows the login prompt instead of its content.
      await page.goto(account.lands);
      await expect(
        page.getByRole('heading', { name: 'Inicia sesión para continuar' }),
      ).toBeVisible();
      await expect(page.getByTestId('page-title')).toHaveCount(0);
      // …and the session guard sends the visitor to /login after 3 seconds.
      await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(account.lands)}`, {
        timeout: 8000,
      });
    });
  }

  test('a query typed in the address that a page refuses is ignored, never a crash (a number where text goes)', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const res = await page.request.post('/api/auth/login', {
      data: { email: 'admin@vitrina.demo', password: PASSWORD },
    });
    expect(res.status()).toBe(200);
    // The router reads `?q=1712345` as a number: the users page searched it with .trim().
    await page.goto('/corporativos/grupo-horizonte/usuarios?q=1712345');
    await expect(page.getByRole('heading', { name: 'Usuarios', exact: true })).toBeVisible();
    await expect(page.getByLabel('Buscar por nombre o correo')).toHaveValue('1712345');
    // A day written without dashes is not one: the calendar opens on today.
    await page.goto('/corporativos/grupo-horizonte/eventos?fecha=20261130&vista=7');
    await expect(page.getByRole('button', { name: 'Nueva cita' })).toBeVisible();
    await page.goto('/corporativos/grupo-horizonte/clientes?q=5512345678&status=1');
    await expect(page.getByRole('button', { name: 'Nuevo cliente' })).toBeVisible();
    await page.goto(
      '/corporativos/grupo-horizonte/desarrollos/torre-alameda/cotizacion?unidad=1501',
    );
    await expect(page.getByRole('combobox').first()).toBeVisible();
    await page.goto('/corporativos/grupo-horizonte/desarrollos?folio=123');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('the hostess sees Events instead of the standard items; the manager sees Users', async ({
    page,
  }) => {
    await signIn(page, 'hostess@vitrina.demo');
    await expect(page).toHaveURL('/corporativos/grupo-horizonte/eventos');
    const nav = page.getByRole('navigation', { name: 'Navegación principal' });
    await expect(nav.getByRole('link', { name: 'Eventos' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.getByRole('link', { name: 'Mis clientes' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Desarrollos' })).toHaveCount(0);
    // She lands on the agenda (today's appointments per showroom), with the showrooms to filter by.
    await expect(page.getByRole('button', { name: 'Agenda' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(
      page.getByRole('combobox', { name: 'Showroom' }).getByRole('option', {
        name: 'Showroom Alameda',
      }),
    ).toHaveCount(1);
    await page.screenshot({ path: `${shots}/events-hostess.png`, fullPage: true });
  });

  test('users page lists the corporate’s users for a manager; Users item only with user permissions', async ({
    page,
  }) => {
    await signIn(page, 'gerente@vitrina.demo');
    const nav = page.getByRole('navigation', { name: 'Navegación principal' });
    await expect(nav.getByRole('link', { name: 'Clientes', exact: true })).toBeVisible();
    await nav.getByRole('link', { name: 'Usuarios' }).click();
    await expect(page).toHaveURL('/corporativos/grupo-horizonte/usuarios');
    // Issue 16: a role that edits users gets the corporate's users, not only its own profile.
    await expect(page.getByRole('heading', { name: 'Usuarios', level: 2 })).toBeVisible();
    await expect(
      page.getByTestId('users-table').locator('tr[data-user="gerente@vitrina.demo"]'),
    ).toContainText('Gerente de ventas');
    await page.screenshot({ path: `${shots}/users-gerente.png`, fullPage: true });

    await page.context().clearCookies();
    await signIn(page, 'asesor@vitrina.demo');
    await expect(page).toHaveURL('/corporativos/grupo-horizonte');
    await expect(nav.getByRole('link', { name: 'Desarrollos' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Usuarios' })).toHaveCount(0);
    // One corporate: no corporate switch.
    await expect(nav.getByRole('button', { name: 'Cambiar corporativo' })).toHaveCount(0);
  });

  test('a wrong password shows the uniform message and stays on /login', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Correo electrónico').fill('asesor@vitrina.demo');
    await page.getByLabel('Contraseña', { exact: true }).fill('Wrong-password-1');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('alert')).toHaveText('El correo o la contraseña no son correctos');
    await expect(page).toHaveURL('/login');
    await page.screenshot({ path: `${shots}/login-error.png`, fullPage: true });
  });

  test('a redirect query wins after sign-in', async ({ page }) => {
    await signIn(
      page,
      'admin@vitrina.demo',
      '/login?redirect=%2Fcorporativos%2Fdesarrollos-pacifico%2Fusuarios',
    );
    await expect(page).toHaveURL('/corporativos/desarrollos-pacifico/usuarios');
  });

  test('a signed-out visit to a corporate page shows the login prompt, then goes to /login with the redirect', async ({
    page,
  }) => {
    await page.goto('/corporativos/grupo-horizonte/eventos');
    await expect(page).toHaveURL('/login?redirect=%2Fcorporativos%2Fgrupo-horizonte%2Feventos', {
      timeout: 8000,
    });
    await expect(page.getByTestId('logout-loading')).toBeHidden();
    await page.screenshot({ path: `${shots}/login.png`, fullPage: true });
    await page.getByLabel('Correo electrónico').fill('hostess@vitrina.demo');
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page).toHaveURL('/corporativos/grupo-horizonte/eventos');
  });
});

test('corporates list: approved ones open, pending ones are disabled with "Falta aprobación"', async ({
  page,
}) => {
  await signIn(page, 'broker@vitrina.demo');
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');
  await page.goto('/corporativos');
  await expect(page.getByRole('link', { name: 'Grupo Horizonte' })).toBeVisible();
  await expect(page.getByText('Falta aprobación')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Desarrollos Pacífico' })).toHaveCount(0);
  await expect(page.getByTestId('logo-placeholder')).toBeVisible();
  await page.screenshot({ path: `${shots}/corporates-broker.png`, fullPage: true });
});

test('links built with the English route builders open the Spanish pages, query kept', async ({
  page,
}) => {
  await signIn(page, 'asesor@vitrina.demo');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(
    '/corporates/grupo-horizonte/developments/torre-alameda/disponibilidad?s=caracteristicas',
  );
  await expect(page).toHaveURL(
    '/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad?s=caracteristicas',
  );
  await page.goto('/corporates/grupo-horizonte/clients');
  await expect(page).toHaveURL('/corporativos/grupo-horizonte/clientes');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the 403 page for a non-member, with the corporate switch', async ({ page }) => {
  await signIn(page, 'asesor.pacifico@vitrina.demo');
  await expect(page).toHaveURL('/corporativos/desarrollos-pacifico');
  await page.goto('/corporativos/grupo-horizonte');
  await expect(
    page.getByRole('heading', { name: 'No tienes permisos para ver el corporativo' }),
  ).toBeVisible();
  const dialog = page.getByRole('dialog', { name: 'Selecciona un corporativo' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('id', 'select_corporate');
  await page.screenshot({ path: `${shots}/forbidden.png`, fullPage: true });
  await dialog.getByRole('button', { name: /Desarrollos Pacífico/ }).click();
  await expect(page).toHaveURL('/corporativos/desarrollos-pacifico');
});

test('language toggle only for grupo-horizonte (multiIdioma); English switches back to Spanish elsewhere', async ({
  page,
}) => {
  await signIn(page, 'admin@vitrina.demo');
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');
  const toggle = page.getByTestId('language-toggle');
  await expect(toggle).toHaveText('EN');
  await toggle.click();
  await expect(toggle).toHaveText('ES');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
  // The administrator sees every adviser's clients: "Clients", not "My clients".
  await expect(nav.getByRole('link', { name: 'Clients', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Hello, Ana' })).toBeVisible();
  await page.screenshot({ path: `${shots}/home-admin-en.png`, fullPage: true });

  // desarrollos-pacifico has no multiIdioma: no toggle, and the interface switches to Spanish.
  await page.getByLabel('Corporate', { exact: true }).selectOption('desarrollos-pacifico');
  await expect(page).toHaveURL('/corporativos/desarrollos-pacifico');
  await expect(
    page
      .getByRole('navigation', { name: 'Navegación principal' })
      .getByRole('link', { name: 'Inicio' }),
  ).toBeVisible();
  await expect(page.getByTestId('language-toggle')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
});

test('settings persist across a reload; Escape closes the modal and focus stays inside while open', async ({
  page,
}) => {
  await signIn(page, 'admin@vitrina.demo');
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');
  const nav = page.getByRole('navigation', { name: 'Navegación principal' });
  await nav.getByRole('button', { name: 'Configuraciones' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configuraciones' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('app-version')).toHaveText(/\d+\.\d+\.\d+/);
  await dialog.getByLabel('Pies cuadrados (ft²)').check();
  await dialog.getByLabel('Moneda').selectOption('USD');
  await page.screenshot({ path: `${shots}/settings.png` });
  // Focus is trapped: tabbing many times never leaves the dialog.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.reload();
  await nav.getByRole('button', { name: 'Configuraciones' }).click();
  await expect(dialog.getByLabel('Pies cuadrados (ft²)')).toBeChecked();
  await expect(dialog.getByLabel('Moneda')).toHaveValue('USD');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // One currency only (desarrollos-pacifico): no currency choice.
  await page.goto('/corporativos/desarrollos-pacifico');
  await nav.getByRole('button', { name: 'Configuraciones' }).click();
  await expect(dialog.getByLabel('Pies cuadrados (ft²)')).toBeChecked();
  await expect(dialog.getByLabel('Moneda')).toHaveCount(0);
});

test('corporate colours re-theme the layout', async ({ page }) => {
  await signIn(page, 'admin@vitrina.demo');
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');
  const sidebarColour = () =>
    page.locator('aside').evaluate((el) => getComputedStyle(el).backgroundColor);
  await expect.poll(sidebarColour).toBe('rgb(15, 42, 68)');
  await page.goto('/corporativos/desarrollos-pacifico');
  await expect(page.getByTestId('page-title')).toHaveText(/Desarrollos Pacífico/);
  await expect.poll(sidebarColour).toBe('rgb(12, 74, 69)');
});

for (const width of [820, 390]) {
  test(`at ${width} px the end of a page scrolls clear of the bottom bar`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 700 } });
    const page = await context.newPage();
    await signIn(page, 'asesor@vitrina.demo');
    await expect(page).toHaveURL(/\/corporativos\/grupo-horizonte/);
    // A page longer than the screen: the quotation of a unit, with its figures and totals.
    await page.goto('/corporativos/grupo-horizonte/desarrollos/torre-alameda/cotizacion');
    await page.getByRole('combobox').first().selectOption({ index: 1 });
    await expect(page.getByTestId('quote-figures')).toBeVisible();
    await expect(page.getByTestId('bottom-nav')).toBeVisible();
    // Scrolled to the very end (again on each poll: the page may still grow), the last of the
    // page's content sits above the bar.
    await expect
      .poll(() =>
        page.evaluate(() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
          const last = document.querySelector('main')!.lastElementChild!;
          const bar = document.querySelector('[data-testid="bottom-nav"]')!;
          return Math.round(bar.getBoundingClientRect().top - last.getBoundingClientRect().bottom);
        }),
      )
      .toBeGreaterThanOrEqual(0);
    await context.close();
  });
}

test.describe('mobile layout at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the sidebar becomes a bottom navigation bar with the same items', async ({ page }) => {
    await signIn(page, 'admin@vitrina.demo');
    await expect(page).toHaveURL('/corporativos/grupo-horizonte');
    await expect(page.locator('aside')).toBeHidden();
    const bar = page.getByTestId('bottom-nav');
    await expect(bar).toBeVisible();
    for (const name of ['Inicio', 'Clientes', 'Desarrollos', 'Eventos'])
      await expect(bar.getByRole('link', { name, exact: true })).toBeVisible();
    // Nine places do not fit a phone with 44 px targets: the rest open from "Más".
    const more = bar.getByRole('button', { name: 'Más' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await expect(bar.getByRole('link', { name: 'Usuarios', exact: true })).toBeHidden();
    const box = await bar.boundingBox();
    expect(box && box.y + box.height).toBeCloseTo(844, 0);
    // Every target of the bar is at least 44 px wide and tall (WCAG 2.5.5), and the bar fits.
    const targets = await bar.locator(':scope > a, :scope > button').evaluateAll((els) =>
      els
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 0)
        .map((r) => Math.min(r.width, r.height)),
    );
    expect(targets).toHaveLength(5);
    for (const size of targets) expect(size).toBeGreaterThanOrEqual(44);
    expect(await bar.evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${shots}/mobile-home.png`, fullPage: false });
    await more.click();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByTestId('bottom-nav-more');
    for (const name of ['Usuarios', 'Operaciones'])
      await expect(panel.getByRole('link', { name, exact: true })).toBeVisible();
    for (const name of ['Cambiar corporativo', 'Configuraciones', 'Cerrar sesión'])
      await expect(panel.getByRole('button', { name, exact: true })).toBeVisible();
    await page.screenshot({ path: `${shots}/mobile-more.png`, fullPage: false });
    // Escape closes it and gives the focus back to "Más".
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(more).toBeFocused();
    await more.click();
    await panel.getByRole('button', { name: 'Cambiar corporativo' }).click();
    await expect(page.getByRole('dialog', { name: 'Selecciona un corporativo' })).toBeVisible();
    await expect(panel).toBeHidden();
    await page.screenshot({ path: `${shots}/mobile-switch.png` });
    await page.keyboard.press('Escape');
    // A place under "Más" is reached from it, and "Más" shows that the page is one of its own.
    await more.click();
    await panel.getByRole('link', { name: 'Usuarios', exact: true }).click();
    await expect(page).toHaveURL('/corporativos/grupo-horizonte/usuarios');
    await expect(panel).toBeHidden();
    await expect(more).toHaveAttribute('data-holds-current', '');
    await page.goto('/login');
  });

  test('an adviser reaches their calendar from the bar', async ({ page }) => {
    await signIn(page, 'asesor@vitrina.demo');
    await expect(page).toHaveURL('/corporativos/grupo-horizonte');
    const bar = page.getByTestId('bottom-nav');
    await bar.getByRole('link', { name: 'Eventos', exact: true }).click();
    await expect(page).toHaveURL(/\/corporativos\/grupo-horizonte\/eventos/);
    await expect(bar.getByRole('link', { name: 'Eventos', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The calendar itself, not its loading status (a screenshot taken at the heading caught it).
    await expect(page.getByText('Cargando citas…')).toHaveCount(0);
    await page.screenshot({ path: `${shots}/mobile-adviser-events.png`, fullPage: false });
  });

  test('a dashboard page has one h1, the top bar’s: the calendar’s range, the featured units and the tutorials are headings under it', async ({
    page,
  }) => {
    await signIn(page, 'admin@vitrina.demo');
    await expect(page).toHaveURL('/corporativos/grupo-horizonte');
    for (const [path, heading] of [
      ['eventos', /\d{4}/],
      ['destacados', /\S/],
      ['tutoriales', /\S/],
    ] as const) {
      await page.goto(`/corporativos/grupo-horizonte/${path}`);
      await expect(page.getByRole('heading', { level: 2, name: heading }).first()).toBeVisible();
      await expect(page.locator('h1'), path).toHaveCount(1);
      await expect(page.getByTestId('page-title')).toBeVisible();
    }
  });

  test('the top bar names the development in full; the heading keeps the whole title', async ({
    page,
  }) => {
    await signIn(page, 'asesor@vitrina.demo');
    await expect(page).toHaveURL('/corporativos/grupo-horizonte');
    await page.goto('/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad');
    const title = page.getByTestId('page-title');
    await expect(title).toHaveText('Panel | Grupo Horizonte | Torre Alameda');
    // What shows is the development's name, not cut ("Panel | Grup…" before).
    // The parts on screen (wider than the 1 px of a screen-reader-only part), and none cut.
    const shown = () =>
      title.evaluate((h) =>
        Array.from(h.children)
          .filter((part) => part.getBoundingClientRect().width > 1)
          .map((part) => (part.textContent ?? '').replace('|', '').trim()),
      );
    await expect.poll(shown).toEqual(['Torre Alameda']);
    expect(await title.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
    await page.screenshot({ path: `${shots}/mobile-title.png` });
  });

  test('every label of the bottom bar fits, with the same words as the sidebar, in both languages', async ({
    page,
  }) => {
    await signIn(page, 'admin@vitrina.demo');
    await expect(page).toHaveURL('/corporativos/grupo-horizonte');
    const bar = page.getByTestId('bottom-nav');
    const labels = () =>
      bar
        .locator(':scope > a > span, :scope > button > span')
        .evaluateAll((spans) =>
          spans
            .filter((s) => s.getBoundingClientRect().width > 0)
            .map((s) => ({ text: s.textContent, cut: s.scrollWidth > s.clientWidth })),
        );
    const barWidth = () => bar.evaluate((el) => el.scrollWidth);
    await expect(bar.getByRole('link', { name: 'Clientes', exact: true })).toBeVisible();
    expect(await labels()).toEqual(
      ['Inicio', 'Clientes', 'Desarrollos', 'Eventos', 'Más'].map((text) => ({
        text,
        cut: false,
      })),
    );
    expect(await barWidth()).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${shots}/mobile-bar-es.png` });

    await page.getByTestId('language-toggle').click();
    await expect(bar.getByRole('link', { name: 'Clients', exact: true })).toBeVisible();
    expect(await labels()).toEqual(
      ['Home', 'Clients', 'Developments', 'Events', 'More'].map((text) => ({ text, cut: false })),
    );
    expect(await barWidth()).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${shots}/mobile-bar-en.png` });
    await page.getByTestId('language-toggle').click();
    await expect(bar.getByRole('link', { name: 'Clientes', exact: true })).toBeVisible();
  });

  test('login on a phone', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Inicia sesión' })).toBeVisible();
    await page.screenshot({ path: `${shots}/mobile-login.png` });
  });
});
