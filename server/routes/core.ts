/**
 * Core routes and socket handlers: health, the currency list, and the socket's session
 * (provide_token, get_userdata, ping/pong) plus update_balances after every balance change.
 */
import * as v from 'valibot';
import type { Socket } from 'socket.io';
import type { AppContext, ServerModule } from '../context';
import { ok } from '../../contract/envelope';
import { CURRENCIES, DEFAULT_CURRENCY } from '../../contract/currencies';
import { GetUserdataSchema, ProvideTokenSchema } from '../../contract/socket';
import { getBalances } from '../domain/ledger';
import { parseFrontSettings } from '../domain/users';

export const userRoom = (userId: number) => `user:${userId}`;

/** Per-socket state: who the socket belongs to once it provided a valid token. */
export interface SocketSession {
  userId: number | null;
}

export function socketSession(socket: Socket): SocketSession {
  const data = socket.data as { session?: SocketSession };
  return (data.session ??= { userId: null });
}

async function authenticateSocket(ctx: AppContext, socket: Socket, token: string): Promise<number | null> {
  const claims = await ctx.tokens.verify(token, ctx.now());
  if (!claims || !(await ctx.isSessionActive(claims))) return null;
  const session = socketSession(socket);
  if (session.userId !== claims.userId) {
    if (session.userId !== null) await socket.leave(userRoom(session.userId));
    session.userId = claims.userId;
    await socket.join(userRoom(claims.userId));
  }
  return claims.userId;
}

export async function userdataFor(ctx: AppContext, userId: number) {
  const user = await ctx.db
    .selectFrom('users')
    .select(['currency', 'front_settings'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return null;
  const fs = parseFrontSettings(user.front_settings);
  const balances = await getBalances(ctx.db, userId, [user.currency]);
  return {
    userdata: { balances, currency_code: fs.current_currency ?? user.currency ?? DEFAULT_CURRENCY },
    valuts: [...CURRENCIES],
  };
}

export const coreModule: ServerModule = {
  name: 'core',
  routes(app) {
    app.get('/api/health', async () => ok({ status: 'ok' }));
    app.get('/api/v2/currencies', async () => ok({ currencies: CURRENCIES }));
  },
  socket(io, ctx) {
    io.on('connection', (socket) => {
      socketSession(socket);
      socket.emit('init_valuts', { valuts_data: [...CURRENCIES] });

      socket.on('provide_token', async (raw: unknown) => {
        const parsed = v.safeParse(ProvideTokenSchema, raw);
        if (!parsed.success) return socket.emit('error_message', { event: 'provide_token', message: 'Invalid payload' });
        const userId = await authenticateSocket(ctx, socket, parsed.output.token);
        if (userId === null) socket.emit('error_message', { event: 'provide_token', message: 'Unauthorized' });
      });

      socket.on('get_userdata', async (raw: unknown) => {
        const parsed = v.safeParse(GetUserdataSchema, raw);
        if (!parsed.success) return socket.emit('error_message', { event: 'get_userdata', message: 'Invalid payload' });
        const userId = await authenticateSocket(ctx, socket, parsed.output.token);
        if (userId === null) return socket.emit('error_message', { event: 'get_userdata', message: 'Unauthorized' });
        const data = await userdataFor(ctx, userId);
        if (data) socket.emit('userdata', data);
      });

      socket.on('ping', () => socket.emit('pong', { time: ctx.now() }));
    });

    ctx.events.on('balances.changed', async (event) => {
      if (event.userId === null) return;
      const balances = await getBalances(ctx.db, event.userId);
      io.to(userRoom(event.userId)).emit('update_balances', { balances });
    });
  },
};
