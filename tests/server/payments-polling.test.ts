/**
 * polling_status over socket.io: a crypto-address deposit is watched from its creation
 * (`{transaction_id, polling: true}` to the owner) until its final status (`polling: false`
 * after payment_status_update approved); a manual deposit is never watched, and another user's
 * socket hears nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import { auditLedgerAfterEach } from '../support/ledger-audit';
import { deposit, newUser, payments, startMoneyServer, userSocket, waitFor } from './payments-support';

let server: TestServer;
beforeAll(async () => {
  server = await startMoneyServer({ CRYPTO_CONFIRM_DELAY_SECONDS: '1' });
});
afterAll(async () => {
  await server.close();
});
auditLedgerAfterEach(() => server);

async function recorded(token: string) {
  const s = await userSocket(server, token);
  const events: { name: string; payload: any }[] = [];
  s.onAny((name: string, payload: unknown) => events.push({ name, payload }));
  return events;
}

describe('polling_status', () => {
  it('is true from a crypto deposit\'s creation and false once it is approved, to its owner only', async () => {
    const u = await newUser(server);
    const other = await newUser(server);
    const mine = await recorded(u.token);
    const theirs = await recorded(other.token);
    const created = await deposit(server, u, { amount: 25, currency: 'USD', payment_method_id: 'usdt_trc20' });
    expect(created.status).toBe(201);
    const id = created.body.data.transaction_id;
    await waitFor(async () => mine.some((e) => e.name === 'polling_status' && e.payload.polling === false), 15_000);
    const seen = mine.filter((e) => e.name === 'polling_status' || e.name === 'payment_status_update').map((e) => [e.name, e.payload]);
    expect(seen).toEqual([
      ['polling_status', { transaction_id: id, polling: true }],
      ['payment_status_update', { transaction: { id, status: 'approved', transaction_type: 'deposit' } }],
      ['polling_status', { transaction_id: id, polling: false }],
    ]);
    expect(theirs.some((e) => e.name === 'polling_status')).toBe(false);
  });

  it('is never sent for a manual deposit', async () => {
    const u = await newUser(server);
    const mine = await recorded(u.token);
    const created = await deposit(server, u, { amount: 20, currency: 'USD', payment_method_id: 'card_visa_mastercard' });
    const id = created.body.data.transaction_id;
    await payments(server).reject(id);
    await waitFor(async () => mine.some((e) => e.name === 'payment_status_update' && e.payload.transaction.id === id), 5000);
    expect(mine.some((e) => e.name === 'polling_status')).toBe(false);
  });
});
