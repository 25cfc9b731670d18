// The resolve hook of module-probe.mjs (it runs on the loader's thread).
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const file = process.env.VITRINA_MODULE_PROBE;
  if (file) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
