import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * People (issue 16) in Chromium, as a person would, with the mail read on the development
 * mailbox page (`/dev/correos`: the e2e server has no SMTP, so mails are kept and listed there):
 * - an administrator invites a person from the users page; the person opens the mailed link,
 *   sets a password with the rule shown live and lands in the corporate, signed in;
 * - a broker registers from the sign-in page's link, sees 'Falta aprobación', the manager (an
 *   approver) approves on the users page, the broker signs in and lands in the corporate;
 * - a user recovers a password from "¿Olvidaste tu contraseña?"; an older session is gone.
 * Screenshots of the users page, its dialogs and the signed-out pages at 1280, 820 and 390 px in
 * es and en; axe (WCAG 2 A/AA) clean on each.
 */
const PASSWORD = 'Vitrina2026!';
const NEW_PASSWORD = 'Bienvenida2026';
const CORP = 'grupo-horizonte';
const USERS = `/corporativos/${CORP}/usuarios`;
const SHOTS = 'tests/e2e/__screenshots__';
const SIZES = [
  ['1280', { width: 1280, height: 800 }],
  ['820', { width: 820, height: 1180 }],
  ['390', { width: 390, height: 844 }],
] as const;

async function context(
  browser: Browser,
  options: {
    email?: string;
    language?: 'es' | 'en';
    viewport?: { width: number; height: number };
  } = {},
): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  if (options.language)
    await ctx.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), options.language);
  if (options.email) {
    const res = await ctx.request.post('/api/auth/login', {
      data: { email: options.email, password: PASSWORD },
    });
    expect(res.status()).toBe(200);
  }
  return ctx;
}

/** Opens the newest mail to `to` on the development mailbox page and answers its link to `path`. */
async function mailedLink(page: Page, to: string, path: string): Promise<string> {
  let href: string | null = null;
  await expect(async () => {
    await page.goto('/dev/correos');
    const row = page.getByRole('row').filter({ hasText: to }).first();
    await expect(row).toBeVisible({ timeout: 1000 });
    await row.getByRole('link').click();
    href = await page
      .getByRole('link', { name: new RegExp(`${path.replace('/', '\\/')}\\?token=`) })
      .first()
      .getAttribute('href', { timeout: 1000 });
    expect(href).toBeTruthy();
    // The outbox delivers the mail a moment after the request.
  }).toPass({ timeout: 30_000 });
  return href!;
}

async function corporateId(
  ctx: BrowserContext,
): Promise<{ id: string; roles: { id: string; nombre: string }[] }> {
  return (await (await ctx.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json()) as {
    id: string;
    roles: { id: string; nombre: string }[];
  };
}

test('an administrator invites a person, who opens the mailed link, sets a password and lands in the corporate', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await context(browser, { email: 'admin@vitrina.demo' });
  const page = await admin.newPage();
  await page.goto(USERS);
  await expect(page.getByRole('heading', { name: 'Usuarios', level: 2 })).toBeVisible();
  await expect(page.getByTestId('users-table')).toBeVisible();
  await expect(page.getByTestId('users-range')).toContainText('de');
  await page.getByRole('button', { name: 'Invitar usuario' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invitar usuario' });
  await dialog.getByLabel('Nombre').fill('Valeria');
  await dialog.getByLabel('Apellidos').fill('Soto');
  await dialog.getByLabel('Correo electrónico').fill('valeria.soto@example.com');
  await dialog.getByLabel('Rol').selectOption({ label: 'Asesor' });
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/people-invite-dialog-es-1280.png` });
  await dialog.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Invitación enviada a valeria.soto@example.com')).toBeVisible();
  const row = page.locator('tr[data-user="valeria.soto@example.com"]');
  await expect(row).toContainText('Invitación pendiente');
  await expect(
    row.getByRole('button', { name: 'Reenviar invitación a Valeria Soto' }),
  ).toBeVisible();

  // The person, signed out, reads the mail and follows its link.
  const person = await context(browser);
  const inbox = await person.newPage();
  const link = await mailedLink(inbox, 'valeria.soto@example.com', '/acceso');
  expect(new URL(link).pathname).toBe('/acceso');
  await inbox.goto(link);
  await expect(inbox.getByRole('heading', { name: 'Crea tu contraseña' })).toBeVisible();
  await expect(inbox.getByText('Valeria, te invitaron a Grupo Horizonte.')).toBeVisible();
  const rules = inbox.getByTestId('password-rules');
  const password = inbox.getByLabel('Contraseña', { exact: true });
  await password.fill('corta');
  await expect(rules.locator('[data-rule="mayuscula"]')).toHaveAttribute('data-met', 'false');
  await expect(rules.locator('[data-rule="longitud"]')).toHaveAttribute('data-met', 'false');
  await password.fill('Corta1');
  await expect(rules.locator('[data-rule="mayuscula"]')).toHaveAttribute('data-met', 'true');
  await expect(rules.locator('[data-rule="digito"]')).toHaveAttribute('data-met', 'true');
  await expect(rules.locator('[data-rule="longitud"]')).toHaveAttribute('data-met', 'false');
  await password.fill(NEW_PASSWORD);
  await expect(rules.locator('[data-met="true"]')).toHaveCount(3);
  await inbox.getByLabel('Confirma la contraseña').fill(NEW_PASSWORD);
  expect(await axeViolations(inbox)).toEqual([]);
  await inbox.screenshot({ path: `${SHOTS}/people-acceso-es-1280.png`, fullPage: true });
  await inbox.getByRole('button', { name: 'Guardar contraseña y entrar' }).click();
  await expect(inbox).toHaveURL(`/corporativos/${CORP}`);
  const me = (await (await person.request.get('/api/auth/session')).json()) as {
    email: string;
    info: { estatus: string };
  };
  expect(me).toMatchObject({ email: 'valeria.soto@example.com', info: { estatus: 'activo' } });
  // The link was single-use.
  await inbox.goto(link);
  await expect(inbox.getByRole('alert')).toContainText('no es válido o ya se usó');

  // Back on the users page she is active; the administrator makes her an approver who may give
  // the adviser's role, and changes her phone.
  await page.reload();
  await expect(page.locator('tr[data-user="valeria.soto@example.com"]')).toContainText('Activo');
  await page.getByRole('button', { name: 'Editar a Valeria Soto' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar usuario' });
  // A phone that is not one is explained at the field, and nothing is sent.
  const phone = edit.getByLabel('Teléfono (opcional)');
  await phone.fill('no tengo');
  let sent = 0;
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/api/users/')) sent += 1;
  });
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(phone).toHaveAccessibleDescription(/Escribe un teléfono válido/);
  expect(sent).toBe(0);
  await phone.fill('+52 55 7777 8888');
  await expect(phone).toHaveAttribute('aria-invalid', 'false');
  await edit.getByLabel('Aprueba registros de brokers').check();
  await edit.getByRole('group', { name: 'Roles que puede asignar' }).getByLabel('Asesor').check();
  expect(await axeViolations(page)).toEqual([]);
  await edit.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Cambios guardados')).toBeVisible();
  const corp = await corporateId(admin);
  const listed = (await (
    await admin.request.get(
      `/api/users/indices/users?corporateId=${corp.id}&q=${encodeURIComponent('valeria')}`,
    )
  ).json()) as {
    usuarios: { telefono: string; aprobarRegistro: boolean; rolesAsignacion: string[] }[];
  };
  expect(listed.usuarios[0]).toMatchObject({
    telefono: '+52 55 7777 8888',
    aprobarRegistro: true,
    rolesAsignacion: [corp.roles.find((r) => r.nombre === 'Asesor')!.id],
  });
  await admin.close();
  await person.close();
});

test('a broker registers from the sign-in page, sees “Falta aprobación”, the manager approves, the broker lands in the corporate', async ({
  browser,
}) => {
  const visitor = await context(browser);
  const page = await visitor.newPage();
  await page.goto(`/login?redirect=%2Fcorporativos%2F${CORP}%2Fdesarrollos`);
  await page.getByRole('link', { name: '¿Eres broker? Regístrate' }).click();
  await expect(page).toHaveURL(`/registro/${CORP}`);
  await expect(page.getByRole('heading', { name: 'Regístrate como broker' })).toBeVisible();
  await page.getByLabel('Nombre', { exact: true }).fill('Bernardo');
  await page.getByLabel('Apellidos').fill('Vidal');
  await page.getByLabel('Correo electrónico').fill('bernardo.vidal@example.com');
  await page.getByLabel('Teléfono').fill('+52 55 4444 1234');
  const agency = page.getByLabel('Inmobiliaria');
  const options = await agency.locator('option').allTextContents();
  expect(options.at(-1)).toBe('Otra (escríbela)');
  await agency.selectOption('OTRO');
  await page.getByLabel('Nombre de tu inmobiliaria').fill('Casas del Bajío');
  await page.getByLabel('Contraseña', { exact: true }).fill('Broker2026Clave');
  await page.getByLabel('Confirma la contraseña').fill('Broker2026Clave');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/people-registro-es-1280.png`, fullPage: true });
  await page.getByRole('button', { name: 'Enviar registro' }).click();
  await expect(page.getByRole('heading', { name: 'Recibimos tu registro' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('status')).toContainText('Falta aprobación');

  // Signed in, the broker sees the corporate disabled: 'Falta aprobación'.
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill('bernardo.vidal@example.com');
  await page.getByLabel('Contraseña', { exact: true }).fill('Broker2026Clave');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL('/corporativos');
  await expect(page.getByText('Falta aprobación')).toBeVisible();

  // The manager approves on the users page.
  const manager = await context(browser, { email: 'gerente@vitrina.demo' });
  const users = await manager.newPage();
  await users.goto(`${USERS}?estatus=pendiente`);
  const requests = users.getByTestId('registration-requests');
  await expect(requests).toContainText('Bernardo Vidal');
  await expect(requests).toContainText('Casas del Bajío');
  await expect(users.locator('tr[data-user="bernardo.vidal@example.com"]')).toContainText(
    'Falta aprobación',
  );
  expect(await axeViolations(users)).toEqual([]);
  await users.screenshot({ path: `${SHOTS}/people-requests-es-1280.png`, fullPage: true });
  await requests.getByRole('button', { name: 'Aprobar a Bernardo Vidal' }).click();
  const approve = users.getByRole('dialog', { name: 'Aprobar registro' });
  await expect(approve.getByLabel('Rol')).toHaveValue(/broker/);
  await approve.getByRole('button', { name: 'Aprobar' }).click();
  await expect(users.getByText('Bernardo Vidal fue aprobado')).toBeVisible();
  await expect(users.getByTestId('registration-requests')).toHaveCount(0);

  // The broker signs in again and lands in the corporate.
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill('bernardo.vidal@example.com');
  await page.getByLabel('Contraseña', { exact: true }).fill('Broker2026Clave');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(`/corporativos/${CORP}`);
  await visitor.close();
  await manager.close();
});

test('a user recovers a password from the sign-in page; an older session is gone', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // A user of this test's own (the demo accounts keep their password for the other tests).
  const admin = await context(browser, { email: 'admin@vitrina.demo' });
  const corp = await corporateId(admin);
  const email = 'olvido@example.com';
  const created = await admin.request.post('/api/auth/create-user', {
    data: {
      idCorporativo: corp.id,
      email,
      nombre: 'Olga',
      apellidos: 'Vidrio',
      idRol: corp.roles.find((r) => r.nombre === 'Asesor')!.id,
      password: 'Olvidada2026',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const older = await context(browser);
  expect(
    (
      await older.request.post('/api/auth/login', { data: { email, password: 'Olvidada2026' } })
    ).status(),
  ).toBe(200);
  expect((await older.request.get('/api/auth/session')).status()).toBe(200);

  const visitor = await context(browser);
  const page = await visitor.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
  await expect(page).toHaveURL('/recuperar');
  await expect(page.getByRole('heading', { name: '¿Olvidaste tu contraseña?' })).toBeVisible();
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(page.getByRole('main').getByRole('status')).toContainText(
    `Si ${email} tiene una cuenta`,
  );
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/people-recuperar-es-1280.png`, fullPage: true });

  const link = await mailedLink(page, email, '/recuperar');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Crea una nueva contraseña' })).toBeVisible();
  await page.getByLabel('Contraseña', { exact: true }).fill('Recordada2026');
  await page.getByLabel('Confirma la contraseña').fill('Recordada2026');
  await page.getByRole('button', { name: 'Guardar y entrar' }).click();
  await expect(page).toHaveURL(`/corporativos/${CORP}`);
  // The session opened before the recovery has ended.
  expect((await older.request.get('/api/auth/session')).status()).toBe(401);
  await admin.close();
  await older.close();
  await visitor.close();
});

for (const [language, size] of [
  ['es', '1280'],
  ['en', '390'],
] as const) {
  test(`the invite dialog says at each field what is missing or malformed (${language} ${size})`, async ({
    browser,
  }) => {
    const viewport = SIZES.find(([s]) => s === size)![1];
    const ctx = await context(browser, { email: 'admin@vitrina.demo', language, viewport });
    const page = await ctx.newPage();
    const x =
      language === 'es'
        ? {
            invite: 'Invitar usuario',
            nombre: 'Nombre',
            email: 'Correo electrónico',
            send: 'Enviar invitación',
            required: 'Completa este campo',
            malformed: 'Escribe un correo válido, por ejemplo nombre@dominio.com.',
          }
        : {
            invite: 'Invite user',
            nombre: 'First name',
            email: 'E-mail',
            send: 'Send invitation',
            required: 'Fill in this field',
            malformed: 'Enter a valid e-mail address, for example name@domain.com.',
          };
    await page.goto(USERS);
    await expect(page.getByTestId('users-table')).toBeVisible();
    await page.getByRole('button', { name: x.invite }).click();
    const dialog = page.getByRole('dialog', { name: x.invite });
    const nombre = dialog.getByLabel(x.nombre, { exact: true });
    const email = dialog.getByLabel(x.email, { exact: true });
    const send = dialog.getByRole('button', { name: x.send });

    // Nothing filled in: each required field says so, and the first one takes the focus.
    await send.click();
    for (const field of [nombre, email]) {
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(x.required);
    }
    await expect(nombre).toBeFocused();
    await expect(dialog.getByText(x.required)).toHaveCount(2);
    expect(await axeViolations(page), `${language} ${size} invite required`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/people-invite-required-${language}-${size}.png` });

    // A malformed e-mail: a clear message at the field, not the generic error.
    await nombre.fill('Valeria');
    await email.fill('valeria@');
    await send.click();
    await expect(nombre).not.toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(x.malformed);
    await expect(email).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/people-invite-email-${language}-${size}.png` });

    // One only the server refuses (a one-letter top-level domain) says the same at the field.
    await email.fill('valeria@ejemplo.c');
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await send.click();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(x.malformed);
    await expect(email).toBeFocused();
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await ctx.close();
  });
}

for (const language of ['es', 'en'] as const) {
  for (const [size, viewport] of SIZES) {
    test(`screenshots ${language} ${size}: the users page and its dialogs, and the signed-out pages; axe clean`, async ({
      browser,
    }) => {
      const ctx = await context(browser, { email: 'admin@vitrina.demo', language, viewport });
      const page = await ctx.newPage();
      await page.goto(USERS);
      await expect(page.getByTestId('users-table')).toBeVisible();
      await expect(page.locator('tr[data-user="gerente@vitrina.demo"]')).toBeVisible();
      expect(await axeViolations(page), `${language} ${size} users page`).toEqual([]);
      await page.screenshot({
        path: `${SHOTS}/people-users-${language}-${size}.png`,
        fullPage: true,
      });
      const name = language === 'es' ? 'Editar a Sofía Navarro' : 'Edit Sofía Navarro';
      await page.getByRole('button', { name }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      expect(await axeViolations(page), `${language} ${size} edit dialog`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/people-edit-${language}-${size}.png` });
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      const deactivate =
        language === 'es' ? 'Desactivar a Diego Ibarra' : 'Deactivate Diego Ibarra';
      await page.getByRole('button', { name: deactivate }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await axeViolations(page), `${language} ${size} deactivate dialog`).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/people-deactivate-${language}-${size}.png` });
      await page.keyboard.press('Escape');
      await ctx.close();

      const visitor = await context(browser, { language, viewport });
      const pub = await visitor.newPage();
      for (const [shot, path, heading] of [
        [
          'registro',
          `/registro/${CORP}`,
          language === 'es' ? 'Regístrate como broker' : 'Register as a broker',
        ],
        [
          'recuperar',
          '/recuperar',
          language === 'es' ? '¿Olvidaste tu contraseña?' : 'Forgot your password?',
        ],
        ['login', '/login', language === 'es' ? 'Inicia sesión' : 'Sign in'],
      ] as const) {
        await pub.goto(path);
        await expect(pub.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        expect(await axeViolations(pub), `${language} ${size} ${path}`).toEqual([]);
        await pub.screenshot({
          path: `${SHOTS}/people-${shot}-${language}-${size}.png`,
          fullPage: true,
        });
      }
      await visitor.close();
    });
  }
}

test('the users table wraps an e-mail only after the @ or before a dot, never inside a name (820 and 390 px)', async ({
  browser,
}) => {
  const ctx = await context(browser, { email: 'admin@vitrina.demo', viewport: SIZES[1][1] });
  const page = await ctx.newPage();
  await page.goto(USERS);
  await expect(page.locator('tr[data-user="gerente@vitrina.demo"]')).toBeVisible();
  for (const [size, viewport] of [SIZES[1], SIZES[2]] as const) {
    await page.setViewportSize(viewport);
    // Each character's line, read from the layout: a new line may start only after `@` or at a
    // dot, and the name cell never scrolls sideways.
    const badBreaks = await page.locator('tr[data-user]').evaluateAll((rows) =>
      rows.flatMap((row) => {
        const email = row.getAttribute('data-user') ?? '';
        const cell = row.querySelector('td')!;
        const chars: { c: string; top: number }[] = [];
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (let i = 0; i < text.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            chars.push({ c: text[i]!, top: Math.round(range.getBoundingClientRect().top) });
          }
        }
        const start = chars
          .map((x) => x.c)
          .join('')
          .indexOf(email);
        if (start < 0) return [`${email}: not shown`];
        const bad: string[] = [];
        for (let i = 1; i < email.length; i++) {
          const wrapped = Math.abs(chars[start + i]!.top - chars[start + i - 1]!.top) > 2;
          if (wrapped && email[i - 1] !== '@' && email[i] !== '.')
            bad.push(`${email.slice(0, i)} / ${email.slice(i)}`);
        }
        if (cell.scrollWidth > cell.clientWidth) bad.push(`${email}: the cell overflows`);
        return bad;
      }),
    );
    expect(badBreaks, `e-mails at ${size} px`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/people-emails-${size}.png`, fullPage: true });
  }
  await ctx.close();
});

/** The users page as the administrator at each of {@link SIZES}, its table shown, for `check`. */
async function atEachSize(
  browser: Browser,
  check: (
    page: Page,
    size: (typeof SIZES)[number][0],
    viewport: { width: number },
  ) => Promise<void>,
) {
  const ctx = await context(browser, { email: 'admin@vitrina.demo' });
  const page = await ctx.newPage();
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await page.goto(USERS);
    await expect(page.getByTestId('users-table')).toBeVisible();
    await check(page, size, viewport);
  }
  await ctx.close();
}

test('the users page uses the width it has: at 820 px its card reaches the content padding (no strip for the chat bubble below 1024 px); at 1280 px it stays clear of the bubble', async ({
  browser,
}) => {
  await atEachSize(browser, async (page, size, viewport) => {
    // The strip is the bubble's: with no bubble there would be nothing to measure against.
    await expect(page.getByTestId('chat-bubble')).toBeVisible();
    const edges = await page.evaluate(() => {
      const main = document.querySelector('main')!;
      const card = document.querySelector('[data-testid="users-table"]')!.closest('section')!;
      return {
        card: card.getBoundingClientRect().right,
        bubble: document.querySelector('[data-testid="chat-bubble"]')!.getBoundingClientRect().left,
        padding: parseFloat(getComputedStyle(main).paddingLeft),
        width: document.documentElement.clientWidth,
      };
    });
    if (size === '1280') {
      expect(edges.card, 'the card ends before the bubble').toBeLessThanOrEqual(edges.bubble);
    } else {
      // The right edge as far in as the left one: no gap beside the content.
      expect(
        Math.abs(edges.width - edges.padding - edges.card),
        `right edge at ${size} px`,
      ).toBeLessThanOrEqual(1);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
  });
});

test('keyboard: after a row action whose button goes, focus lands on its replacement or a row, never on the body (WCAG 2.4.3)', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await context(browser, { email: 'admin@vitrina.demo' });
  const { id: idCorporativo, roles } = await corporateId(admin);
  const idRol = roles.find((r) => r.nombre === 'Asesor')!.id;
  const stamp = Date.now();
  const member = (apellidos: string) => ({
    idCorporativo,
    idRol,
    nombre: 'Foco',
    apellidos,
    email: `foco${stamp}.${apellidos.toLowerCase()}@example.com`,
  });
  const created = await admin.request.post('/api/auth/create-user', {
    data: { ...member('Alfa'), password: NEW_PASSWORD },
  });
  expect(created.ok()).toBe(true);
  for (const apellidos of ['Beta', 'Gamma']) {
    const invited = await admin.request.post('/api/usuarios/invitar', { data: member(apellidos) });
    expect(invited.ok()).toBe(true);
  }
  const page = await admin.newPage();
  // Counts the animation frames the page asks for: what a focus helper left watching would use.
  type Counting = Window & { framesAsked?: number };
  await page.addInitScript(() => {
    const w: Counting = window;
    const ask = window.requestAnimationFrame.bind(window);
    w.framesAsked = 0;
    window.requestAnimationFrame = (callback) => {
      w.framesAsked = (w.framesAsked ?? 0) + 1;
      return ask(callback);
    };
  });
  const framesAskedIn = async (ms: number) => {
    const count = () => page.evaluate(() => (window as Counting).framesAsked ?? 0);
    const before = await count();
    await page.waitForTimeout(ms);
    return (await count()) - before;
  };
  await page.goto(`${USERS}?q=foco${stamp}`);
  const row = (apellidos: string) => page.locator(`tr[data-user="${member(apellidos).email}"]`);
  const name = (apellidos: string) =>
    row(apellidos).getByText(`Foco ${apellidos}`, { exact: true });
  await expect(page.getByTestId('users-table').locator('tr[data-user]')).toHaveCount(3);

  // A dialog cancelled (Escape, "Cancelar"): focus back on the button that opened it, and
  // nothing left waiting for the row to change (it used to watch it a frame at a time for 10 s).
  for (const [opener, title, cancel] of [
    ['Editar a Foco Alfa', 'Editar usuario', 'Escape'],
    ['Desactivar a Foco Alfa', 'Desactivar usuario', 'Cancelar'],
  ] as const) {
    await page.getByRole('button', { name: opener }).press('Enter');
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    if (cancel === 'Escape') await page.keyboard.press('Escape');
    else await dialog.getByRole('button', { name: cancel }).press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('button', { name: opener })).toBeFocused();
    expect(await framesAskedIn(500), `frames asked for after cancelling "${title}"`).toBe(0);
  }

  // Saving a dialog by keyboard: while its request is pending the button says so, is disabled
  // (aria-disabled: a disabled button would drop focus to the page) and keeps focus, and Enter
  // again sends nothing more; answered, the dialog closes and focus is back on its opener.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let puts = 0;
  await page.route('**/api/users/*', async (route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    puts += 1;
    await released;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Editar a Foco Alfa' }).press('Enter');
  const edit = page.getByRole('dialog', { name: 'Editar usuario' });
  await edit.getByLabel('Teléfono (opcional)').fill('5512345678');
  await edit.getByRole('button', { name: 'Guardar cambios' }).press('Enter');
  const saving = edit.getByRole('button', { name: 'Guardando…' });
  await expect(saving).toBeDisabled();
  await expect(saving).toBeFocused();
  await expect.poll(() => puts).toBe(1);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  expect(puts).toBe(1);
  await expect(saving).toBeFocused();
  release();
  await expect(edit).toHaveCount(0);
  await expect(page.getByText('Cambios guardados')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Editar a Foco Alfa' })).toBeFocused();
  // Its button stayed: nothing watches the page a frame at a time meanwhile.
  expect(await framesAskedIn(500), 'frames asked for after saving').toBe(0);
  await page.unroute('**/api/users/*');

  // Deactivate (through its dialog): focus on "Reactivar", the button that took its place.
  await page.getByRole('button', { name: 'Desactivar a Foco Alfa' }).press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Desactivar usuario' });
  await dialog.getByRole('button', { name: 'Desactivar', exact: true }).press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(row('Alfa').getByText('Desactivado')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reactivar a Foco Alfa' })).toBeFocused();
  // Reactivate: focus on "Desactivar" again.
  await page.getByRole('button', { name: 'Reactivar a Foco Alfa' }).press('Enter');
  await expect(page.getByText('Foco Alfa puede volver a iniciar sesión')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Desactivar a Foco Alfa' })).toBeFocused();

  // Resend: the button stays and keeps focus.
  await page.getByRole('button', { name: 'Reenviar invitación a Foco Beta' }).press('Enter');
  await expect(page.getByText(`Invitación reenviada a ${member('Beta').email}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reenviar invitación a Foco Beta' })).toBeFocused();

  // Revoke: the row leaves the list; focus on the name of the row now in its place…
  await page.getByRole('button', { name: 'Revocar invitación de Foco Beta' }).press('Enter');
  await expect(row('Beta')).toHaveCount(0);
  await expect(name('Gamma')).toBeFocused();
  // …or, for the last row, of the row before it.
  await page.getByRole('button', { name: 'Revocar invitación de Foco Gamma' }).press('Enter');
  await expect(row('Gamma')).toHaveCount(0);
  await expect(name('Alfa')).toBeFocused();
  await admin.close();
});

test('the users filters show their whole choice and the users are rows of a table only from 1024 px (at 820 px the five columns cut names and stacked the actions)', async ({
  browser,
}) => {
  await atEachSize(browser, async (page, size) => {
    // Each select is wide enough for its chosen option's text, its paddings and its arrow.
    const selects = await page.locator('[role="search"] select').evaluateAll((list) =>
      list.map((select) => {
        const s = select as HTMLSelectElement;
        const style = getComputedStyle(s);
        const probe = document.createElement('span');
        probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${style.font}`;
        probe.textContent = s.options[s.selectedIndex]!.text;
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        const room =
          s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
        return { text, room };
      }),
    );
    expect(selects).toHaveLength(2);
    for (const { text, room } of selects) expect(text, `${size} px`).toBeLessThanOrEqual(room);
    const header = page.getByTestId('users-table').locator('thead');
    if (size === '1280') await expect(header).toBeVisible();
    else await expect(header).toBeHidden();
  });
});
