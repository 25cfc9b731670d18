/**
 * The API calls e2e specs make before they open a page: a demo account's sign-in on a request
 * context (a page's `page.request` shares its cookies), and a development's units as the clusters
 * call lists them.
 */
import { expect, type APIRequestContext } from '@playwright/test';

/** The demo accounts' password (seed/demo.ts). */
export const DEMO_PASSWORD = 'Vitrina2026!';

export interface ApiUnit {
  id: string;
  nombre: string;
  status?: string;
}

export async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post('/api/auth/login', { data: { email, password: DEMO_PASSWORD } });
  expect(res.status()).toBe(200);
}

/** A development by its corporate's and its own slug, with every unit its clusters list. */
export async function developmentUnits(
  request: APIRequestContext,
  corporateSlug: string,
  developmentSlug: string,
): Promise<{ corporate: { id: string }; development: { id: string }; units: ApiUnit[] }> {
  const read = async (url: string) => {
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    return res.json();
  };
  const corporate = await read(`/api/wsObtenerCorporativo?slug=${corporateSlug}`);
  const development = await read(
    `/api/wsObtenerDesarrollo?idCorporativo=${corporate.id}&slug=${developmentSlug}`,
  );
  const clusters: { unidades: ApiUnit[] }[] = await read(
    `/api/wsObtenerClusters?idCorporativo=${corporate.id}&idDesarrollo=${development.id}`,
  );
  return { corporate, development, units: clusters.flatMap((c) => c.unidades) };
}
