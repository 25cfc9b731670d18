/**
 * Issue 20, items 9 and 10 on the real pages: the seeded video plays in Chromium on
 * `galerias-videos` (a `<video controls>` with a poster, fetched with range requests), an
 * administrator uploads an image, a video with its poster and a document through the pages'
 * upload control (progress, a refused type explained in the interface language), and an adviser
 * sees no upload control. Screenshots at 1280/820/390 in es and en, axe clean.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/${DEV}`;
const SHOTS = 'tests/e2e/__screenshots__';
const LANGUAGE_KEY = 'vitrina:idioma';
const VIDEO = readFileSync('src/server/seed/assets/recorrido.mp4');
const POSTER = readFileSync('src/server/seed/assets/recorrido-poster.png');

type Lang = 'es' | 'en';

async function contextFor(browser: Browser, lang: Lang, width: number, email: string) {
  const context = await browser.newContext({
    locale: lang === 'es' ? 'es-MX' : 'en-US',
    viewport: { width, height: width < 600 ? 844 : 800 },
  });
  await context.addInitScript(
    ([key, value]) => localStorage.setItem(key!, value!),
    [LANGUAGE_KEY, lang],
  );
  const res = await context.request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

async function serious(page: Page) {
  expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
}

test.describe('media', () => {
  test('the seeded video plays: poster, range requests, currentTime advances', async ({
    browser,
  }) => {
    const context = await contextFor(browser, 'es', 1280, 'asesor@vitrina.demo');
    const page = await context.newPage();
    const ranges: string[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/api/media/') && res.status() === 206)
        ranges.push(res.headers()['content-range'] ?? '');
    });
    await page.goto(`${DEV_PATH}/galerias-videos`);
    const video = page.getByTestId('gallery-video').first();
    await expect(video).toBeVisible();
    await expect(page.getByTestId('media-upload-video')).toHaveCount(0);
    expect(await video.getAttribute('poster')).toMatch(/^\/api\/media\//);
    expect(await video.getAttribute('controls')).not.toBeNull();
    await expect(video).toHaveAccessibleName('Video Recorrido virtual');
    const played = await video.evaluate(async (el: HTMLVideoElement) => {
      el.muted = true;
      await el.play();
      const start = el.currentTime;
      await new Promise((r) => setTimeout(r, 1200));
      return {
        start,
        now: el.currentTime,
        readyState: el.readyState,
        duration: el.duration,
        width: el.videoWidth,
      };
    });
    expect(played.readyState).toBeGreaterThanOrEqual(2);
    expect(played.now).toBeGreaterThan(played.start + 0.3);
    expect(played.duration).toBeGreaterThan(3);
    expect(played.width).toBe(480);
    // Chromium asked for the video by byte ranges and the server answered 206.
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges[0]).toMatch(/^bytes \d+-\d+\/\d+$/);
    await serious(page);
    await context.close();
  });

  test('an administrator uploads an image, a video with its poster and a document', async ({
    browser,
  }) => {
    const context = await contextFor(browser, 'es', 1280, 'admin@vitrina.demo');
    const page = await context.newPage();

    await page.goto(`${DEV_PATH}/galerias`);
    const imageForm = page.getByTestId('media-upload-imagen');
    await expect(imageForm).toBeVisible();
    // A PDF renamed .png is refused by its content, in Spanish.
    await imageForm.getByLabel('Título').fill('Plano falso');
    await imageForm.getByLabel('Archivo').setInputFiles({
      name: 'plano.png',
      mimeType: 'image/png',
      buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    await imageForm.getByRole('button', { name: 'Subir' }).click();
    await expect(imageForm.getByRole('alert')).toContainText(
      'El contenido del archivo no es de un tipo permitido',
    );
    await imageForm.getByLabel('Título').fill('Atardecer desde la terraza');
    await imageForm.getByLabel('Archivo').setInputFiles({
      name: 'atardecer.png',
      mimeType: 'image/png',
      buffer: POSTER,
    });
    await imageForm.getByRole('button', { name: 'Subir' }).click();
    await expect(imageForm.getByRole('status')).toHaveText(
      'Se subió «Atardecer desde la terraza».',
    );
    await expect(
      page.getByRole('button', { name: 'Ver imagen Atardecer desde la terraza' }),
    ).toBeVisible();

    await page.goto(`${DEV_PATH}/galerias-videos`);
    const videoForm = page.getByTestId('media-upload-video');
    await videoForm.getByLabel('Título').fill('Recorrido al atardecer');
    await videoForm
      .getByLabel('Archivo')
      .setInputFiles({ name: 'recorrido.mp4', mimeType: 'video/mp4', buffer: VIDEO });
    await videoForm
      .getByLabel('Portada (opcional)')
      .setInputFiles({ name: 'portada.png', mimeType: 'image/png', buffer: POSTER });
    await videoForm.getByRole('button', { name: 'Subir' }).click();
    await expect(videoForm.getByRole('status')).toHaveText('Se subió «Recorrido al atardecer».');
    const uploaded = page.getByRole('figure').filter({ hasText: 'Recorrido al atardecer' });
    const uploadedVideo = uploaded.getByTestId('gallery-video');
    await expect(uploadedVideo).toBeVisible();
    const readyState = await uploadedVideo.evaluate(async (el: HTMLVideoElement) => {
      el.muted = true;
      await el.play();
      await new Promise((r) => setTimeout(r, 500));
      return el.readyState;
    });
    expect(readyState).toBeGreaterThanOrEqual(2);

    await page.goto(`${DEV_PATH}/documentos`);
    const docForm = page.getByTestId('media-upload-documento');
    await docForm.getByLabel('Título').fill('Reglamento');
    await docForm.getByLabel('Archivo').setInputFiles({
      name: 'reglamento.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
    });
    await docForm.getByRole('button', { name: 'Subir' }).click();
    await expect(docForm.getByRole('status')).toHaveText('Se subió «Reglamento».');
    // The list shows it, and its link opens the PDF the server typed from its bytes.
    const link = page.getByRole('link', { name: /Reglamento/ });
    await expect(link).toBeVisible();
    const pdf = await context.request.get((await link.getAttribute('href'))!);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    await context.close();
  });

  for (const lang of ['es', 'en'] as const) {
    for (const width of [1280, 820, 390]) {
      test(`video gallery with the upload control, ${lang} ${width}`, async ({ browser }) => {
        const context = await contextFor(browser, lang, width, 'admin@vitrina.demo');
        const page = await context.newPage();
        await page.goto(`${DEV_PATH}/galerias-videos`);
        await expect(page.getByTestId('gallery-video').first()).toBeVisible();
        await expect(page.getByTestId('media-upload-video')).toBeVisible();
        await page
          .getByTestId('gallery-video')
          .first()
          .evaluate(
            (el: HTMLVideoElement) =>
              new Promise((resolve) => {
                if (el.readyState >= 1) resolve(null);
                else el.addEventListener('loadedmetadata', () => resolve(null), { once: true });
              }),
          );
        // The poster settles once the loading indicator is gone.
        await page.waitForTimeout(500);
        await page.screenshot({ path: `${SHOTS}/media-videos-${lang}-${width}.png` });
        await serious(page);
        await context.close();
      });
    }
  }
});
