/**
 * A route's search is its parent's with what its `validateSearch` answers spread over it, and the
 * root's is the address's query as the router parsed it (TanStack Router `matchRoutes`). So a key
 * a validator refused stayed in the route's search as typed: `?q=1712345` came through as the
 * number 1712345 and `?fecha=20261130` as a number, and the page that trusted its validated
 * search crashed (`trim is not a function`). Wrapped in {@link onlyValidated}, every key the
 * validator read and did not answer is answered `undefined`, which hides the raw value.
 *
 * Keys the validator never reads stay as they are: a provider's `?code=&state=` on the page an
 * authorisation returns to is read from the address by its own code, and answering it
 * `undefined` would make the router rewrite the address without it.
 */
export function onlyValidated<T extends object>(
  validate: (search: Record<string, unknown>) => T,
): (search: Record<string, unknown>) => T {
  return (search) => {
    const read = new Set<string>();
    const watched = new Proxy(search, {
      get(target, key, receiver) {
        if (typeof key === 'string') read.add(key);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const valid = validate(watched) as Record<string, unknown>;
    const out: Record<string, unknown> = { ...valid };
    for (const key of read)
      if (Object.hasOwn(search, key) && !Object.hasOwn(valid, key)) out[key] = undefined;
    return out as T;
  };
}
