/**
 * A test server whose prices the test pushes (PushFeed), started before a file's tests and closed
 * after them together with the sockets they opened. Call it once at the top of a test file; its
 * fields are set when the file's tests run.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Socket } from 'socket.io-client';
import { PushFeed } from '../../server/domain/market/push-feed';
import { startTestServer, type TestServer } from './server';

export interface PushFeedServer {
  server: TestServer;
  feed: PushFeed;
  /** Sockets to disconnect when the file's tests are done. */
  opened: Socket[];
}

export function pushFeedServer(): PushFeedServer {
  const f = { opened: [] as Socket[] } as PushFeedServer;
  beforeAll(async () => {
    f.feed = new PushFeed();
    f.server = await startTestServer({}, { marketFeed: f.feed });
    await f.server.ctx.services.market.whenStarted();
  });
  afterAll(async () => {
    for (const s of f.opened) s.disconnect();
    await f.server.close();
  });
  return f;
}
