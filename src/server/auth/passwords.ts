import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** argon2id with 19 MiB of memory, 2 iterations, parallelism 1 (OWASP ASVS 11.4.2). */
const options = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** A hash to verify against when the account does not exist, so both failures take the same time. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password-Vitrina0');
  return dummy;
}
