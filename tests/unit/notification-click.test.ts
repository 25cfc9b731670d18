import { describe, expect, it } from 'vitest';
import { notificationTarget, planNotificationClick } from '../../src/ui/lib/notification-click';

const ORIGIN = 'https://vitrina.example';
const CLIENTS = `${ORIGIN}/corporativos/grupo-horizonte/clientes`;

describe('notificationTarget', () => {
  it('resolves an in-app path against the origin', () => {
    expect(notificationTarget('/corporativos/grupo-horizonte/clientes', ORIGIN)).toBe(CLIENTS);
  });
  it('leads home for another origin, a missing or a malformed target', () => {
    expect(notificationTarget('https://evil.example/phish', ORIGIN)).toBe(`${ORIGIN}/`);
    expect(notificationTarget('//evil.example/x', ORIGIN)).toBe(`${ORIGIN}/`);
    expect(notificationTarget(undefined, ORIGIN)).toBe(`${ORIGIN}/`);
    expect(notificationTarget('', ORIGIN)).toBe(`${ORIGIN}/`);
    expect(notificationTarget(42, ORIGIN)).toBe(`${ORIGIN}/`);
    expect(notificationTarget('http://[::1', ORIGIN)).toBe(`${ORIGIN}/`);
  });
});

describe('planNotificationClick', () => {
  const tab = (url: string) => ({ url });
  it('focuses a tab already showing the target, even when another tab comes first', () => {
    const other = tab(`${ORIGIN}/corporativos/grupo-horizonte/desarrollos`);
    const showing = tab(CLIENTS);
    expect(planNotificationClick([other, showing], CLIENTS, ORIGIN)).toEqual({
      action: 'focus',
      client: showing,
    });
  });
  it("takes the app's first tab to the target when none shows it", () => {
    const foreign = tab('https://elsewhere.example/');
    const first = tab(`${ORIGIN}/corporativos/grupo-horizonte/desarrollos`);
    expect(planNotificationClick([foreign, first], CLIENTS, ORIGIN)).toEqual({
      action: 'navigate',
      client: first,
    });
  });
  it('opens a window when no tab of the app is open', () => {
    expect(planNotificationClick([tab('https://elsewhere.example/')], CLIENTS, ORIGIN)).toEqual({
      action: 'open',
    });
    expect(planNotificationClick([], CLIENTS, ORIGIN)).toEqual({ action: 'open' });
  });
});
