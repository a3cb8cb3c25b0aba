/**
 * The socket's session over a real server: a socket hears a user's pushes only while the token
 * it provided stands. A bad token provided later takes it out of the user's room; a logout (or
 * any end of the session) and an expired token drop it at the next sweep, with an
 * error_message the client answers by refreshing; a failing handler answers instead of crashing.
 */
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { nextEvent } from '../support/server';
import { useTestServer } from '../support/server-fixture';
import { register } from '../support/auth';
import { sweepSocketSessions } from '../../server/http/socket-session';

const server = useTestServer({}, {}, { auditLedger: false });

const resetDemo = (token: string) => server.api('POST', '/api/v2/payments/reset-demo-balance', { currency: 'USD' }, token);

/** Whether an update_balances push reaches the socket after the user's demo balance is reset. */
async function hearsBalances(socket: Socket, token: string): Promise<boolean> {
  const heard = nextEvent(socket, 'update_balances', 1500).then(
    () => true,
    () => false,
  );
  expect((await resetDemo(token)).status).toBe(200);
  return heard;
}

async function authenticated(token: string): Promise<Socket> {
  const socket = await server.socket();
  const data = nextEvent(socket, 'userdata');
  socket.emit('get_userdata', { token });
  await data;
  return socket;
}

function sweep() {
  const io = server.ctx.io;
  if (!io) throw new Error('the test server has no socket.io');
  return sweepSocketSessions(server.ctx, io);
}

describe('socket session', () => {
  it('leaves the user room when a later token is refused', async () => {
    const user = await register(server);
    const socket = await authenticated(user.token);
    expect(await hearsBalances(socket, user.token)).toBe(true);

    const refused = nextEvent(socket, 'error_message');
    socket.emit('provide_token', { token: 'not-a-token' });
    expect(await refused).toEqual({ event: 'provide_token', message: 'Unauthorized' });
    expect(await hearsBalances(socket, user.token)).toBe(false);
  });

  it('drops a socket whose session was logged out, and tells it so', async () => {
    const user = await register(server);
    const other = await register(server);
    const socket = await authenticated(user.token);
    const bystander = await authenticated(other.token);

    expect(await sweep()).toBe(0);
    const logout = await server.api('POST', '/api/platform/auth/logout', { refresh_token: user.refreshToken }, user.token);
    expect(logout.status).toBe(200);
    const told = nextEvent(socket, 'error_message');
    expect(await sweep()).toBe(1);
    expect(await told).toEqual({ event: 'provide_token', message: 'Unauthorized' });

    // The logged-out session hears nothing more; a new login on the same socket works again.
    const login = await server.api('POST', '/api/platform/auth/login', { username: user.username, password: user.password });
    expect(login.status).toBe(200);
    const fresh: string = login.body.data.token;
    expect(await hearsBalances(socket, fresh)).toBe(false);
    const data = nextEvent(socket, 'userdata');
    socket.emit('get_userdata', { token: fresh });
    await data;
    expect(await hearsBalances(socket, fresh)).toBe(true);
    // Other users' sockets are untouched.
    expect(await hearsBalances(bystander, other.token)).toBe(true);
  });

  it('drops a socket once its token has expired', async () => {
    const user = await register(server);
    const socket = await authenticated(user.token);
    const claims = await server.ctx.tokens.verify(user.token);
    expect(claims?.expiresAt).toBeGreaterThan(Date.now());
    const realNow = server.ctx.now;
    server.ctx.now = () => (claims?.expiresAt ?? 0) + 1;
    try {
      expect(await sweep()).toBeGreaterThanOrEqual(1);
    } finally {
      server.ctx.now = realNow;
    }
    expect(await hearsBalances(socket, user.token)).toBe(false);
  });

  it('answers a handler failure with error_message instead of crashing the server', async () => {
    const user = await register(server);
    const socket = await server.socket();
    const realVerify = server.ctx.tokens.verify.bind(server.ctx.tokens);
    server.ctx.tokens.verify = () => Promise.reject(new Error('database is locked'));
    try {
      const answer = nextEvent(socket, 'error_message');
      socket.emit('get_userdata', { token: user.token });
      expect(await answer).toEqual({ event: 'get_userdata', message: 'Request failed' });
    } finally {
      server.ctx.tokens.verify = realVerify;
    }
    expect((await server.api('GET', '/api/health')).status).toBe(200);
  });
});
