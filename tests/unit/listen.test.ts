import { describe, expect, it } from 'vitest';
import { DEFAULT_HOST, displayUrl, listenHost } from '../../src/server/listen';

describe('where the server listens (HOST)', () => {
  it('binds the loopback interface unless HOST says otherwise', () => {
    expect(DEFAULT_HOST).toBe('127.0.0.1');
    expect(listenHost(undefined)).toBe('127.0.0.1');
    expect(listenHost('  ')).toBe('127.0.0.1');
    // A showroom tablet on the LAN needs every interface (or the machine's LAN address).
    expect(listenHost('0.0.0.0')).toBe('0.0.0.0');
    expect(listenHost('192.168.1.20')).toBe('192.168.1.20');
  });

  it('prints localhost for loopback and every-interface binds, else the address', () => {
    expect(displayUrl('127.0.0.1', 3000)).toBe('http://localhost:3000');
    expect(displayUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(displayUrl('192.168.1.20', 8080)).toBe('http://192.168.1.20:8080');
    expect(displayUrl('fd00::5', 8080)).toBe('http://[fd00::5]:8080');
  });
});
