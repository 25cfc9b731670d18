import { expect, test } from '@playwright/test';

// A corporate without multiIdioma shows Spanish (spec §2) without overwriting the user's own
// choice: the next corporate that offers English shows English again.
test('English chosen in one corporate comes back after visiting a Spanish-only one', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill('admin@vitrina.demo');
  await page.getByLabel('Contraseña', { exact: true }).fill('Vitrina2026!');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');

  await page.getByTestId('language-toggle').click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('vitrina:idioma'))).toBe('en');

  // Desarrollos Pacífico is Spanish only: Spanish, and no language toggle.
  await page.goto('/corporativos/desarrollos-pacifico');
  await expect(page.getByRole('navigation', { name: 'Navegación principal' })).toBeVisible();
  await expect(page.getByTestId('language-toggle')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
  expect(await page.evaluate(() => localStorage.getItem('vitrina:idioma'))).toBe('en');

  // Back in Grupo Horizonte: the user's English again, also after a reload.
  await page.goto('/corporativos/grupo-horizonte');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
});
