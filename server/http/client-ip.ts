/**
 * The client's address behind a load balancer (TRUST_PROXY, docs/deploy.md). Without trusted
 * proxies it is the connection's address, whatever headers say. With them, a connection from a
 * trusted proxy is read through its X-Forwarded-For: the rightmost address that is not itself a
 * trusted proxy (the left part of the header is whatever the client sent, never believed).
 * Fastify's `trustProxy` reads HTTP requests the same way (an array of addresses); socket.io
 * handshakes are read here, so per-IP limits count the same client on both.
 */
import net from 'node:net';

/** IPv4-mapped IPv6 (::ffff:10.0.0.1) as the plain IPv4 address. */
export function normalizeIp(address: string): string {
  const a = address.trim();
  return a.toLowerCase().startsWith('::ffff:') && net.isIPv4(a.slice(7)) ? a.slice(7) : a;
}

const splitList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Whether `value` is a comma-separated list of IP addresses. */
export const isAddressList = (value: string) => splitList(value).every((ip) => net.isIP(ip) !== 0);

/** TRUST_PROXY's comma-separated addresses; throws naming a bad one. */
export function parseTrustedProxies(value: string | undefined): string[] {
  if (!value) return [];
  const list = splitList(value);
  for (const ip of list) if (!net.isIP(ip)) throw new Error(`TRUST_PROXY: "${ip}" is not an IP address`);
  return list.map(normalizeIp);
}

export function clientIp(remote: string | undefined, forwardedFor: string | string[] | undefined, trusted: ReadonlySet<string>): string {
  const direct = normalizeIp(remote ?? '');
  if (trusted.size === 0 || !trusted.has(direct)) return direct || 'unknown';
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((s) => normalizeIp(s))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.has(hops[i])) return hops[i];
  }
  return hops[0] ?? direct;
}
