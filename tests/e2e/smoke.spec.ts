import { expect, test } from '@playwright/test';

test.describe('platform smoke', () => {
  test('the built app loads and reads the development list through the real API', async ({
    page,
  }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("object-src 'none'");
    await expect(page.locator('#root')).not.toBeEmpty();

    const login = await page.request.post('/api/auth/login', {
      data: { email: 'asesor@vitrina.demo', password: 'Vitrina2026!' },
    });
    expect(login.status()).toBe(200);
    const corporate = await (
      await page.request.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')
    ).json();
    const developments = await page.evaluate(async (id: string) => {
      const res = await fetch(
        `/api/wsObtenerDesarrollos?idCorporativo=${id}&ocultarDesarrollosSinUnidades=si`,
      );
      return (await res.json()) as { slug: string; totalUnidades: number }[];
    }, corporate.id as string);
    expect(developments.map((d) => d.slug)).toEqual(['torre-alameda', 'residencial-los-olivos']);
    expect(developments[0]!.totalUnidades).toBe(248);
  });

  test('idle connections are kept 65 s, longer than a client or proxy keeps them', async ({
    request,
  }) => {
    // Node's default, 5 s, let the server close a socket just as a client reused it (ECONNRESET).
    const res = await request.get('/api/wsObtenerConfiguracionesGenerales');
    expect(res.status()).toBe(200);
    expect(res.headers()['keep-alive']).toBe('timeout=65');
  });

  test('unknown API routes answer the spec error shape', async ({ request }) => {
    const res = await request.get('/api/wsNoExiste');
    expect(res.status()).toBe(404);
    expect(await res.json()).toEqual([{ errorCode: 'NOT_FOUND', message: 'La ruta no existe' }]);
  });
});
