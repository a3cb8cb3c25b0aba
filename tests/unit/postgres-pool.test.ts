/**
 * The PostgreSQL pool gives up on a database that never answers (server/db/postgres.ts): a
 * listener that accepts connections and stays silent stands in for a hung server. Without the
 * pool's connection timeout the query waits forever and this test runs out of time.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, createPool } from '../../server/db/postgres';

let silent: net.Server;
let port = 0;
const held: net.Socket[] = [];

beforeAll(async () => {
  silent = net.createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as net.AddressInfo).port;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

it('fails a query instead of waiting forever for a database that does not answer', async () => {
  const pool = createPool(`postgres://nobody@127.0.0.1:${port}/none`, 1);
  try {
    await expect(pool.query('select 1')).rejects.toThrow(/timeout/i);
  } finally {
    await pool.end().catch(() => undefined);
  }
}, CONNECT_TIMEOUT_MS + 10_000);
