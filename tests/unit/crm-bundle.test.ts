/**
 * CRM secrets never reach the client (issue 17): the client secret, access and refresh tokens
 * live only on the server (src/server/crm), so nothing the browser loads may know them. Checked
 * on the client's sources always, and on a built bundle when one is there (`VITRINA_DIST_DIR`, or
 * ./dist): no server-side CRM marker, no test fake's client secret.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_CLIENT } from '../support/crm-fakes/common';

/**
 * Words only the server's CRM code uses: their presence in client code means it leaked. (Generic
 * OAuth words such as `refresh_token` are not among them: the Firebase sign-in SDK uses them.)
 */
const SERVER_ONLY = [
  'clientSecretCifrado',
  'crm_credentials',
  'crm_oauth_states',
  'Zoho-oauthtoken',
  'VITRINA_CRM_KEY',
  'aes-256-gcm',
  FAKE_CLIENT.clientSecret,
];

function files(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

const root = resolve(__dirname, '../..');

describe('CRM secrets stay on the server', () => {
  it('no client source imports the server or names its secrets', () => {
    const client = ['src/ui', 'src/machines', 'src/workers'].flatMap((d) =>
      files(join(root, d), /\.(ts|tsx)$/),
    );
    expect(client.length).toBeGreaterThan(20);
    for (const file of client) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/from ['"][./]*(\.\.\/)*server\//);
      for (const word of SERVER_ONLY) expect(text.includes(word), `${file}: ${word}`).toBe(false);
    }
  });

  const dist = resolve(process.env.VITRINA_DIST_DIR ?? join(root, 'dist'));
  const built = files(dist, /\.(js|mjs|html|json|webmanifest)$/);
  it.skipIf(built.length === 0)(`the built bundle holds none of them (${dist})`, () => {
    for (const file of built) {
      const text = readFileSync(file, 'utf8');
      for (const word of SERVER_ONLY) expect(text.includes(word), `${file}: ${word}`).toBe(false);
    }
  });
});
