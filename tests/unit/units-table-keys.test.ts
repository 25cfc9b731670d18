/**
 * The virtualised units table's keys (issue 20): on a unit's button the arrows move one row, Page
 * Up/Down 10, Home/End to the first and last, clamped to the table; other keys do nothing.
 */
import { describe, expect, it } from 'vitest';
import { rowForKey, VIRTUAL_FROM } from '../../src/ui/features/inventory/utils/table-keys';

describe('units table keys', () => {
  it('moves by one, by a page of 10 and to either end, within the rows', () => {
    expect(rowForKey('ArrowDown', 5, 2000)).toBe(6);
    expect(rowForKey('ArrowUp', 5, 2000)).toBe(4);
    expect(rowForKey('PageDown', 5, 2000)).toBe(15);
    expect(rowForKey('PageUp', 5, 2000)).toBe(0);
    expect(rowForKey('Home', 1500, 2000)).toBe(0);
    expect(rowForKey('End', 3, 2000)).toBe(1999);
    expect(rowForKey('ArrowDown', 1999, 2000)).toBe(1999);
    expect(rowForKey('ArrowUp', 0, 2000)).toBe(0);
    expect(rowForKey('Enter', 5, 2000)).toBeNull();
  });

  it("virtualises from 400 rows (Torre Alameda's 248 render whole)", () => {
    expect(VIRTUAL_FROM).toBe(400);
  });
});
