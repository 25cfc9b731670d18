/**
 * The lead pickers (issue 21): the request they send as the user types, and what the line under
 * the input says about the list it shows.
 */
import { describe, expect, it, vi } from 'vitest';
import { LEAD_PICKER_LIMIT, leadPickerParams } from '../../src/ui/lib/lead-search';
import { statusKey } from '../../src/ui/components/lead-picker';

// Panda's generated classes are not what this test reads.
vi.mock('styled-system/css', () => ({ css: () => '', cx: () => '' }));

const idle = { pending: false, error: false, fetching: false };

describe('lead picker', () => {
  it('sends the trimmed text as q, and no q for a blank input (the newest leads)', () => {
    expect(leadPickerParams('c1', '  Zoraida ')).toEqual({
      idCorporativo: 'c1',
      limit: LEAD_PICKER_LIMIT,
      q: 'Zoraida',
    });
    expect(leadPickerParams('c1', '   ')).toEqual({
      idCorporativo: 'c1',
      limit: LEAD_PICKER_LIMIT,
    });
  });

  it('says searching, failed, none, a hint, type to search, found or more', () => {
    expect(statusKey({ ...idle, pending: true }, 'zo', 0)).toBe('picker.searching');
    expect(statusKey({ ...idle, fetching: true }, 'zo', 3)).toBe('picker.searching');
    expect(statusKey({ ...idle, error: true }, 'zo', 0)).toBe('picker.failed');
    expect(statusKey(idle, 'zo', 0)).toBe('picker.none');
    expect(statusKey(idle, '', 0)).toBe('picker.hint');
    expect(statusKey(idle, '', 5)).toBe('picker.typeToSearch');
    expect(statusKey(idle, 'zo', 1)).toBe('picker.found');
    expect(statusKey(idle, 'zo', LEAD_PICKER_LIMIT)).toBe('picker.more');
  });

  it('never says nothing matches before a search for typed text has answered', () => {
    // Nothing typed yet: a hint, whether the newest leads came back or not.
    for (const state of [idle, { ...idle, pending: true }, { ...idle, fetching: true }])
      for (const count of [0, 3]) expect(statusKey(state, '', count)).not.toBe('picker.none');
    expect(statusKey(idle, '', 0)).toBe('picker.hint');
    // Typed, but the answer has not come (or is the previous text's): searching.
    expect(statusKey({ ...idle, pending: true }, 'zo', 0)).toBe('picker.searching');
    expect(statusKey({ ...idle, fetching: true }, 'zo', 0)).toBe('picker.searching');
    // Only the answer to the typed text, with no lead, says so.
    expect(statusKey(idle, 'zo', 0)).toBe('picker.none');
  });
});
