/**
 * Whole numbers in a query string. `z.coerce.number()` reads what `Number()` reads, so
 * `limite=0x10` was 16, `1e2` was 100 and ` 5 ` was 5: a query's number is written in decimal
 * digits only, and anything else is a 400 naming the parameter.
 */
import { z } from 'zod';

/** Decimal digits (at most nine) read as a whole number from `min` to `max`. */
export function queryInt(min: number, max = 999_999_999) {
  return z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
