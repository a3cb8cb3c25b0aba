/**
 * Behind a load balancer every connection comes from the balancer's address: the per-IP limits
 * must count the browser named by the balancer's X-Forwarded-For (TRUST_PROXY, docs/deploy.md),
 * and only when the connection comes from a trusted balancer (a client's own X-Forwarded-For is
 * never believed). HTTP (Fastify's trustProxy, the login limit) and sockets (SOCKETS_PER_IP)
 * read the client the same way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { startTestServer, type TestServer } from '../support/server';
import { IP_LIMITS } from '../../server/routes/auth';
import { clientIp } from '../../server/http/client-ip';
import { loadConfig } from '../../server/config';

let server: TestServer | null = null;
const open: Socket[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  await server?.close();
  server = null;
});

/** A socket whose handshake carries X-Forwarded-For `xff`; resolves whether it was let in. */
function socketFrom(baseUrl: string, xff: string): Promise<boolean> {
  const s = connect(baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { 'x-forwarded-for': xff } });
  open.push(s);
  return new Promise((resolve) => {
    s.once('connect', () => resolve(true));
    s.once('connect_error', () => resolve(false));
  });
}

/** Login attempts (empty bodies: 400) from `xff` until one is refused with 429; the count let through. */
async function loginsUntilLimited(xff: string, max: number): Promise<number> {
  for (let i = 0; i < max; i++) {
    const r = await server!.api('POST', '/api/platform/auth/login', {}, undefined, { 'x-forwarded-for': xff });
    if (r.status === 429) return i;
    expect(r.status).toBe(400);
  }
  return max;
}

describe('client address behind a trusted balancer', () => {
  it('counts sockets per forwarded client when the connection comes from a trusted balancer', async () => {
    server = await startTestServer({ TRUST_PROXY: '127.0.0.1', SOCKETS_PER_IP: '1' });
    expect(await socketFrom(server.baseUrl, '203.0.113.7')).toBe(true);
    expect(await socketFrom(server.baseUrl, '203.0.113.8')).toBe(true);
    // The same browser again: over its cap.
    expect(await socketFrom(server.baseUrl, '203.0.113.7')).toBe(false);
  });

  it('believes no X-Forwarded-For without TRUST_PROXY', async () => {
    server = await startTestServer({ SOCKETS_PER_IP: '1' });
    expect(await socketFrom(server.baseUrl, '203.0.113.7')).toBe(true);
    expect(await socketFrom(server.baseUrl, '203.0.113.8')).toBe(false);
  });

  it('limits HTTP requests per forwarded client', async () => {
    server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
    expect(await loginsUntilLimited('198.51.100.1', IP_LIMITS.login.max + 1)).toBe(IP_LIMITS.login.max);
    // Another browser behind the same balancer still gets in.
    expect(await loginsUntilLimited('198.51.100.2', 1)).toBe(1);
  });

  it('lumps every forwarded client together without TRUST_PROXY', async () => {
    server = await startTestServer({});
    expect(await loginsUntilLimited('198.51.100.1', IP_LIMITS.login.max + 1)).toBe(IP_LIMITS.login.max);
    expect(await loginsUntilLimited('198.51.100.2', 1)).toBe(0);
  });
});

describe('clientIp', () => {
  const trusted = new Set(['10.0.0.2', '10.0.0.3']);
  it('takes the rightmost address that is not a trusted balancer', () => {
    expect(clientIp('10.0.0.2', '1.2.3.4, 10.0.0.3', trusted)).toBe('1.2.3.4');
    // A client that sends its own X-Forwarded-For cannot pick its address.
    expect(clientIp('10.0.0.2', '6.6.6.6, 1.2.3.4', trusted)).toBe('1.2.3.4');
    expect(clientIp('::ffff:10.0.0.2', '1.2.3.4', trusted)).toBe('1.2.3.4');
  });
  it('ignores the header on a connection from anywhere else', () => {
    expect(clientIp('5.5.5.5', '1.2.3.4', trusted)).toBe('5.5.5.5');
    expect(clientIp('5.5.5.5', '1.2.3.4', new Set())).toBe('5.5.5.5');
  });
  it('refuses a TRUST_PROXY that is not a list of addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, ::1' }).trustProxy).toEqual(['10.0.0.2', '::1']);
  });
});
