/**
 * Generated secrets on PostgreSQL are the cluster's, not a node's (server/secrets.ts, migration
 * 012): two nodes on one database, neither given JWT_SECRET or OXAPAY_WEBHOOK_SECRET, sign and
 * check with the same keys, so a trader logged in through one node is known to the other (behind
 * a balancer a request may land on either). A node moved from SQLite brings its secrets.json
 * along: its keys become the cluster's, so its sessions and Telegram webhook keep working.
 * (PostgreSQL only: the server-pg project runs it.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { createDatabase, dropDatabase } from '../support/postgres';
import { testPostgresUrl } from '../support/test-database';
import { startRedis, type RunningRedis } from '../support/redis';
import { register } from '../support/auth';

function adminUrl(): string {
  const url = testPostgresUrl();
  if (!url) throw new Error('this test needs the server-pg project (a throwaway PostgreSQL)');
  return url;
}

describe('secrets shared by the nodes of one database', () => {
  let url = '';
  let redis: RunningRedis;
  const nodes: TestServer[] = [];
  const earlier = {
    jwtSecret: crypto.randomBytes(32).toString('base64url'),
    oxapayWebhookSecret: crypto.randomBytes(32).toString('base64url'),
    telegramWebhookSecret: crypto.randomBytes(32).toString('base64url'),
  };

  beforeAll(async () => {
    redis = await startRedis();
    url = await createDatabase(adminUrl());
    // Node A was a single-node install: its DATA_DIR already holds the secrets it generated.
    const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-secrets-a-'));
    fs.writeFileSync(path.join(dirA, 'secrets.json'), JSON.stringify(earlier), { mode: 0o600 });
    nodes.push(await startTestServer({ DATABASE_URL: url, REDIS_URL: redis.url, DATA_DIR: dirA, NODE_ID: 'secrets-a' }));
    // Node B starts with an empty DATA_DIR.
    nodes.push(await startTestServer({ DATABASE_URL: url, REDIS_URL: redis.url, NODE_ID: 'secrets-b' }));
  }, 60_000);

  afterAll(async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    for (const n of nodes) fs.rmSync(n.dataDir, { recursive: true, force: true });
    await redis?.stop();
    if (url) await dropDatabase(adminUrl(), url);
  });

  it('gives every node the same keys, the first ones stored winning', () => {
    const [a, b] = nodes;
    expect(a.ctx.secrets).toEqual(earlier);
    expect(b.ctx.secrets).toEqual(earlier);
    // Nothing was written into node B's folder: the database holds them.
    expect(fs.existsSync(path.join(b.dataDir, 'secrets.json'))).toBe(false);
  });

  it('accepts on one node the token another node signed', async () => {
    const [a, b] = nodes;
    const user = await register(a);
    const me = await b.api('GET', '/api/platform/auth/me', undefined, user.token);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.data.username).toBe(user.username);
  });
});
