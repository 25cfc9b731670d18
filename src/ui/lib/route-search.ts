/**
 * A route's search is its parent's with what its `validateSearch` answers spread over it, and the
 * root's is the address's query as the router parsed it (TanStack Router `matchRoutes`). So a key
 * a validator refused stayed in the route's search as typed: `?q=1712345` came through as the
 * number 1712345 and `?fecha=20261130` as a number, and the page that trusted its validated
 * search crashed (`trim is not a function`). Wrapped in {@link onlyValidated}, every key of the
 * query the validator did not answer is answered `undefined`, which hides the raw value.
 */
export function onlyValidated<T extends object>(
  validate: (search: Record<string, unknown>) => T,
): (search: Record<string, unknown>) => T {
  return (search) => {
    const valid = validate(search) as Record<string, unknown>;
    const out: Record<string, unknown> = { ...valid };
    for (const key of Object.keys(search)) if (!Object.hasOwn(valid, key)) out[key] = undefined;
    return out as T;
  };
}
