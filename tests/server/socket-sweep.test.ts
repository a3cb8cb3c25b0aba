/**
 * The socket session sweep reads the sessions of all sockets at once
 * (server/http/socket-session.ts, activeFamilies in server/domain/auth/sessions.ts) and still
 * drops exactly the sockets whose session ended: logged out (every socket of that session),
 * password changed since the login, a family presented with another user's id, while the others
 * keep hearing their pushes.
 */
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { nextEvent } from '../support/server';
import { useTestServer } from '../support/server-fixture';
import { register } from '../support/auth';
import { sweepSocketSessions } from '../../server/http/socket-session';

const server = useTestServer({}, {}, { auditLedger: false });

async function authenticated(token: string): Promise<Socket> {
  const socket = await server.socket();
  const data = nextEvent(socket, 'userdata');
  socket.emit('get_userdata', { token });
  await data;
  return socket;
}

/** Whether the socket is told its session ended within a short wait. */
function told(socket: Socket): Promise<boolean> {
  return nextEvent(socket, 'error_message', 800).then(
    (p) => p.event === 'provide_token' && p.message === 'Unauthorized',
    () => false,
  );
}

describe('socket session sweep over many sockets', () => {
  it('drops the sockets of ended sessions only, in one sweep', async () => {
    const [loggedOut, changed, kept, keptToo] = await Promise.all([register(server), register(server), register(server), register(server)]);
    const outA = await authenticated(loggedOut.token);
    const outB = await authenticated(loggedOut.token);
    const changedSocket = await authenticated(changed.token);
    const keptSocket = await authenticated(kept.token);
    const keptTooSocket = await authenticated(keptToo.token);
    const io = server.ctx.io!;
    expect(await sweepSocketSessions(server.ctx, io)).toBe(0);

    expect((await server.api('POST', '/api/platform/auth/logout', { refresh_token: loggedOut.refreshToken }, loggedOut.token)).status).toBe(200);
    // A password changed after the login ends the session even though nobody revoked it.
    await server.ctx.db
      .updateTable('users')
      .set({ password_changed_at: Date.now() + 60_000 })
      .where('id', '=', changed.userId)
      .execute();

    const heard = Promise.all([outA, outB, changedSocket, keptSocket, keptTooSocket].map(told));
    expect(await sweepSocketSessions(server.ctx, io)).toBe(3);
    expect(await heard).toEqual([true, true, true, false, false]);
    expect(await sweepSocketSessions(server.ctx, io)).toBe(0);
  });

  it('does not take a family for another user or session type', async () => {
    const a = await register(server);
    const b = await register(server);
    const socket = await authenticated(b.token);
    const io = server.ctx.io!;
    const serverSide = io.of('/').sockets.get(socket.id!)!;
    const session = (serverSide.data as { session: { claims: { family: string } } }).session;
    const aClaims = await server.ctx.tokens.verify(a.token);
    // b's socket claiming a's family (as a forged pairing would): not alive for b.
    session.claims = { ...session.claims, family: aClaims!.family };
    const heard = told(socket);
    expect(await sweepSocketSessions(server.ctx, io)).toBe(1);
    expect(await heard).toBe(true);
  });
});
