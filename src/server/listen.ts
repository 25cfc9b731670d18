/**
 * Where the server listens: `HOST` (an interface address) and `PORT`. The default host is the
 * loopback interface, so a server started on a laptop is not reachable from the network; a
 * showroom tablet on the LAN (or a container behind its port mapping) needs `HOST=0.0.0.0`
 * (every IPv4 interface) or the machine's LAN address.
 */
export const DEFAULT_HOST = '127.0.0.1';

/** The address to bind: `HOST` when set, else {@link DEFAULT_HOST}. */
export function listenHost(value: string | undefined): string {
  const host = value?.trim();
  return host ? host : DEFAULT_HOST;
}

/** The URL to print for people: localhost for loopback and every-interface binds. */
export function displayUrl(host: string, port: number): string {
  const local = ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'].includes(host);
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
