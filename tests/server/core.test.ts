import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { auditLedger, getBalanceMinor, postLedger, InsufficientBalanceError, resetDemo, withCounterparty, HOUSE_DEMO_ISSUER } from '../../server/domain/ledger';
import { nextEvent } from '../support/server';
import { insertUserRow } from '../support/users';
import { openFamily } from '../../server/domain/auth/sessions';

const server = useTestServer({}, {}, { auditLedger: false });

const makeUser = (name: string) => insertUserRow(server.ctx.db, name, Date.now());

describe('server core', () => {
  it('answers health in the envelope', async () => {
    const r = await server.api('GET', '/api/health');
    expect(r.status).toBe(200);
    const node = server.ctx.config.nodeId;
    // On PostgreSQL the node is a cluster node (docs/cluster.md): alone on its database, it leads the feed.
    const cluster = server.ctx.services.cluster;
    const data = cluster ? { status: 'ok', node, role: 'leader', epoch: cluster.status().epoch } : { status: 'ok', node };
    expect(r.body).toEqual({ success: true, data, error: null, error_message: null });
    if (cluster) expect(cluster.status().epoch).toBeGreaterThanOrEqual(1);
  });
  it('answers malformed JSON and unknown routes with a 4xx envelope', async () => {
    const bad = await server.api('POST', '/api/health', '{not json');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect(bad.body.error_message).toBe('Malformed JSON body');
    const missing = await server.api('GET', '/api/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Not found');
  });
});

describe('ledger', () => {
  it('applies an idempotency key once, never goes negative, and audits clean', async () => {
    const userId = await makeUser('ledger1');
    const first = await server.ctx.tx((trx) => resetDemo(trx, userId, 'USD', `demo-open:${userId}`, 'demo_open'));
    const again = await server.ctx.tx((trx) => resetDemo(trx, userId, 'USD', `demo-open:${userId}`, 'demo_open'));
    expect(first.applied).toBe(true);
    expect(again.applied).toBe(false);
    expect(await getBalanceMinor(server.ctx.db, userId, 'USD', 'demo')).toBe(1_000_000);

    await expect(
      server.ctx.tx((trx) =>
        postLedger(trx, { key: 'too-much', kind: 'order_stake', userId, entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: 'USD', account: 'demo', amount: -1_000_001 }]) }),
      ),
    ).rejects.toBeInstanceOf(InsufficientBalanceError);
    // The failed transaction left nothing behind: the key is still free and the balance unchanged.
    expect(await getBalanceMinor(server.ctx.db, userId, 'USD', 'demo')).toBe(1_000_000);
    const retry = await server.ctx.tx((trx) =>
      postLedger(trx, { key: 'too-much', kind: 'order_stake', userId, entries: withCounterparty(HOUSE_DEMO_ISSUER, [{ currency: 'USD', account: 'demo', amount: -500 }]) }),
    );
    expect(retry.applied).toBe(true);
    expect(await getBalanceMinor(server.ctx.db, userId, 'USD', 'demo')).toBe(999_500);
    expect(await auditLedger(server.ctx.db)).toEqual([]);
  });

  it('refuses to mix demo and real in one ledger transaction', async () => {
    const userId = await makeUser('ledger2');
    await expect(
      server.ctx.tx((trx) =>
        postLedger(trx, {
          key: 'mix',
          kind: 'order_stake',
          userId,
          entries: [
            { currency: 'USD', account: 'demo', amount: 5 },
            { currency: 'USD', account: 'real', amount: 5 },
          ],
        }),
      ),
    ).rejects.toThrow(/mix/);
  });

  it('pushes update_balances to the sockets of the user after a change', async () => {
    const userId = await makeUser('ledger3');
    const { family } = await server.ctx.tx((trx) => openFamily(trx, userId, 'user', Date.now(), server.ctx.config.refreshTokenTtl));
    const token = await server.ctx.tokens.sign({ userId, sessionType: 'user', family });
    const socket = await server.socket();
    socket.emit('provide_token', { token });
    await new Promise((r) => setTimeout(r, 100));
    const pushed = nextEvent(socket, 'update_balances');
    await server.ctx.tx((trx) => resetDemo(trx, userId, 'EUR', `demo-open:eur:${userId}`, 'demo_open'));
    const payload = await pushed;
    expect(payload.balances.EUR).toEqual({ RealBalance: 0, DemoBalance: 10000 });
  });
});
