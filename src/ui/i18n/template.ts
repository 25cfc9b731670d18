/**
 * A translation with plain `{{name}}` values, asked of i18next once and then filled in by
 * concatenation: for a text a screen writes hundreds of times in one render (the availability
 * grid names every unit: i18next's lookup and interpolation on each was most of the grid's
 * text cost on a slow phone). Only for keys without plurals, context or formatting.
 */
import type { TFunction } from 'i18next';

const MARK = '\u0000';

export function compileTranslation<Name extends string>(
  t: TFunction,
  key: string,
  names: readonly Name[],
): (values: Record<Name, string>) => string {
  const marked = t(key, Object.fromEntries(names.map((n, i) => [n, `${MARK}${i}${MARK}`])));
  // Odd parts are the values' indexes, even parts the text between them.
  const parts = marked.split(MARK);
  return (values) => {
    let out = '';
    for (let i = 0; i < parts.length; i++)
      out += i % 2 === 0 ? parts[i] : (values[names[Number(parts[i])]!] ?? '');
    return out;
  };
}
