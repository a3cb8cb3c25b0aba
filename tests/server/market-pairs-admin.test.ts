/**
 * `admin pairs enable|disable` reaches the running server: the command (run on its own database
 * connection, as the CLI process does) writes the flag with a `pairs.changed` event; the server's
 * dispatcher picks it up on its poll, pushes `pairs` (init_pairs' shape) to every connected socket,
 * and refuses orders on the disabled pair like any inactive pair (404). Enabling brings it back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { useTestServer } from '../support/server-fixture';
import { nextEvent } from '../support/server';
import { register, type Registered } from '../support/auth';
import type { DB } from '../../server/db';
import { openTestDatabase } from '../support/test-database';
import { pairsCommand } from '../../server/cli/commands/pairs';
import type { CliContext } from '../../server/cli/commands/types';
import type { InitPairs } from '../../contract/socket';

const server = useTestServer({ SIM_TICKS_PER_SECOND: '10', RATE_LIMIT: 'false' });
let db: DB;
let user: Registered;
let socket: Socket;
const out: string[] = [];

function cli(): CliContext {
  return { config: server.ctx.config, db, now: () => Date.now(), baseUrl: server.baseUrl, out: (l) => out.push(l), err: (l) => out.push(l) };
}

const active = (p: InitPairs, code: string) => p.pairs.find((x) => x.pair_code === code)?.is_active !== false && p.pairs.some((x) => x.pair_code === code);

const place = () =>
  server.api('POST', '/api/v2/orders', { pair_code: 'EURUSD', direction: 'up', amount: 10, currency: 'USD', trading_account: 'DemoAccount', expiry: 5 }, user.token);

beforeAll(async () => {
  await server.ctx.services.market.whenStarted();
  db = await openTestDatabase(server.dataDir);
  user = await register(server);
  socket = connectSocket(server.baseUrl, { transports: ['websocket'], reconnection: false, forceNew: true });
  await nextEvent(socket, 'init_pairs');
});
afterAll(async () => {
  socket?.disconnect();
  // Leave the pair as the catalogue has it for the next test file's database (a fresh one anyway).
  await db?.destroy();
});

describe('admin pairs', () => {
  it('lists the pairs with their flag (--json)', async () => {
    out.length = 0;
    expect(await pairsCommand.run(['list', '--json'], cli())).toBe(0);
    const rows = JSON.parse(out[0]) as { pair_code: string; is_active: boolean }[];
    expect(rows.find((r) => r.pair_code === 'EURUSD')?.is_active).toBe(true);
    expect(rows.find((r) => r.pair_code === 'USDTRY')?.is_active).toBe(false);
  });

  it('disabling pushes pairs without the active pair and refuses orders on it; enabling brings it back', async () => {
    // Accepted while active: the refusal below comes from the switch, not from anything else.
    const before = await place();
    expect(before.status, JSON.stringify(before.body)).toBe(201);

    const pushed = nextEvent<InitPairs>(socket, 'pairs');
    expect(await pairsCommand.run(['disable', 'eurusd'], cli())).toBe(0);
    const off = await pushed;
    expect(active(off, 'EURUSD')).toBe(false);
    expect(off.pairs.length).toBe(server.ctx.services.market.listPairs().length);
    expect(active(off, 'GBPUSD')).toBe(true);

    const refused = await place();
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('Pair not found');
    const rest = await server.api('GET', '/api/v2/pairs');
    expect(active(rest.body.data as InitPairs, 'EURUSD')).toBe(false);

    const back = nextEvent<InitPairs>(socket, 'pairs');
    expect(await pairsCommand.run(['enable', 'EURUSD'], cli())).toBe(0);
    expect(active(await back, 'EURUSD')).toBe(true);
    const again = await place();
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it('refuses an unknown pair and bad usage', async () => {
    out.length = 0;
    expect(await pairsCommand.run(['disable', 'NOPE'], cli())).toBe(1);
    expect(out).toContain('No pair NOPE');
    await expect(pairsCommand.run(['toggle', 'EURUSD'], cli())).rejects.toThrow(/pairs takes/);
  });
});
