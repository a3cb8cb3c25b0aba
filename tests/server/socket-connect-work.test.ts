/**
 * What a socket's connect costs the server beyond socket.io itself (docs/performance.md, "Seventh
 * pass"), with the answers unchanged:
 *   - the session check of provide_token (and of every authenticated request) runs a query built
 *     and compiled once, not per call, and still tells each session's state apart;
 *   - pairs_rates on connect is encoded once while the rates stay the same (not per socket), and a
 *     socket connecting after a tick gets the new rates.
 */
import { describe, expect, it, vi } from 'vitest';
import { Socket as ServerSocket } from 'socket.io';
import { io as connectSocket } from 'socket.io-client';
import { nextEvent } from '../support/server';
import { pushFeedServer } from '../support/push-feed-server';
import { register } from '../support/auth';
import type { PairsRates } from '../../contract/socket';

const f = pushFeedServer();

/** A new socket and the pairs_rates it gets on connect. */
async function connectRates(): Promise<PairsRates> {
  // Listening before connecting: pairs_rates can come with the connect packet.
  const socket = connectSocket(f.server.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false });
  f.opened.push(socket);
  const rates = nextEvent<PairsRates>(socket, 'pairs_rates');
  socket.connect();
  return rates;
}

describe('socket connect work', () => {
  it('checks a session with a query compiled once, and still tells sessions apart', async () => {
    const user = await register(f.server);
    const other = await register(f.server);
    const { tokens, services, db } = f.server.ctx;
    const claims = (await tokens.verify(user.token, f.server.ctx.now()))!;
    const otherClaims = (await tokens.verify(other.token, f.server.ctx.now()))!;
    expect(await services.sessions.isActive(claims)).toBe(true);

    const built = vi.spyOn(db, 'selectFrom');
    try {
      expect(await services.sessions.isActive(otherClaims)).toBe(true);
      // Each value goes to its own place in the query: any one of them wrong and the session is not this one.
      expect(await services.sessions.isActive({ ...claims, family: otherClaims.family })).toBe(false);
      expect(await services.sessions.isActive({ ...claims, userId: otherClaims.userId })).toBe(false);
      expect(await services.sessions.isActive({ ...claims, sessionType: 'admin' })).toBe(false);
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }

    const logout = await f.server.api('POST', '/api/platform/auth/logout', { refresh_token: user.refreshToken }, user.token);
    expect(logout.status).toBe(200);
    expect(await services.sessions.isActive(claims)).toBe(false);
    expect(await services.sessions.isActive(otherClaims)).toBe(true);
  });

  it('encodes pairs_rates on connect once while the rates stay the same, anew after a tick', async () => {
    f.feed.push('EURUSD', 1.1);
    await new Promise((r) => setTimeout(r, 20));
    const market = f.server.ctx.services.market;
    const emitted = vi.spyOn(ServerSocket.prototype, 'emit');
    try {
      const first = await connectRates();
      expect(first).toEqual({ rates: market.rates() });
      expect(first.rates.find((r) => r.pair_code === 'EURUSD')?.current_price).toBe(1.1);
      const same = await Promise.all([connectRates(), connectRates(), connectRates()]);
      for (const answer of same) expect(answer).toEqual(first);

      f.feed.push('EURUSD', 1.2);
      await new Promise((r) => setTimeout(r, 20));
      const after = await connectRates();
      expect(after.rates.find((r) => r.pair_code === 'EURUSD')?.current_price).toBe(1.2);
      expect(after).toEqual({ rates: market.rates() });
      // Written from the shared encoding: no socket was sent its own.
      expect(emitted.mock.calls.filter(([event]) => event === 'pairs_rates')).toEqual([]);
    } finally {
      emitted.mockRestore();
    }
  });
});
