import { describe, expect, it } from 'vitest';
import { testClockFromEnv } from '../../src/server/test-clock';

describe('the e2e test clock', () => {
  it('is off unless VITRINA_TEST_CLOCK is 1', () => {
    expect(testClockFromEnv({})).toBeNull();
    expect(testClockFromEnv({ VITRINA_TEST_CLOCK: 'true' })).toBeNull();
    expect(testClockFromEnv({ VITRINA_TEST_CLOCK: '1' })).not.toBeNull();
  });

  it('moves forward by what it is told and back to real time on reset', () => {
    const clock = testClockFromEnv({ VITRINA_TEST_CLOCK: '1' })!;
    const hour = 3_600_000;
    clock.advance(48 * hour);
    expect(clock.clock().getTime() - Date.now()).toBeGreaterThan(48 * hour - 1_000);
    clock.reset();
    expect(Math.abs(clock.clock().getTime() - Date.now())).toBeLessThan(1_000);
  });
});
