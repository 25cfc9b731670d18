/**
 * What an error says to the user (spec §8):
 * - a string is shown as is, or translated through the code map when it is a known code;
 * - an object with a code gets the mapped message, else its own message (`message`/`msg`),
 *   else the generic one;
 * - anything else is the generic 'An unexpected error occurred, please contact technical support'.
 * The code map is the `codes` object of the `errors` namespace (src/ui/i18n/locales/<lng>/errors.json).
 */

import type { i18n as I18n } from 'i18next';
import i18next from 'i18next';

export const GENERIC_ERROR_KEY = 'errors:generic';

function mapped(code: string, i18n: I18n): string | null {
  const key = `errors:codes.${code}`;
  return i18n.exists(key) ? i18n.t(key) : null;
}

export function errorMessage(error: unknown, i18n: I18n = i18next): string {
  if (typeof error === 'string')
    return (error && mapped(error, i18n)) || error || i18n.t(GENERIC_ERROR_KEY);
  if (error && typeof error === 'object') {
    const e = error as { errorCode?: unknown; code?: unknown; message?: unknown; msg?: unknown };
    const code =
      typeof e.errorCode === 'string' ? e.errorCode : typeof e.code === 'string' ? e.code : null;
    const fromCode = code ? mapped(code, i18n) : null;
    if (fromCode) return fromCode;
    if (typeof e.message === 'string' && e.message) return e.message;
    if (typeof e.msg === 'string' && e.msg) return e.msg;
  }
  return i18n.t(GENERIC_ERROR_KEY);
}
