/**
 * The API calls e2e specs make before they open a page: a demo account's sign-in on a request
 * context (a page's `page.request` shares its cookies), and a unit as the clusters call lists it.
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
