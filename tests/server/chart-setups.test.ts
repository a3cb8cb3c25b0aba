/**
 * Saved chart setups in the front settings (issue 16): a PATCH names only the pairs that
 * changed and the server merges them into what is stored (null removes a pair); the setup comes
 * back with the user on any device (GET /me); a malformed or oversized setup is refused with
 * 400 and nothing stored changes; a broken stored value reads as no setups, never a 500.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { register } from '../support/auth';
import { MAX_DRAWINGS, MAX_STUDIES, type ChartSetup } from '../../contract/chart';

const server = useTestServer({ RATE_LIMIT: 'false' }, {}, { auditLedger: false });

const eurusd: ChartSetup = {
  type: 'heikin_ashi',
  studies: [
    { id: 's1', kind: 'ema', period: 9, color: '#f5a623' },
    { id: 's2', kind: 'macd', fast: 12, slow: 26, signal: 9, color: '#4aa3ff', signalColor: '#b36bff' },
  ],
  drawings: [
    { id: 'd1', kind: 'hline', price: 1.1602 },
    { id: 'd2', kind: 'trend', from: { time: 1_700_000_000, price: 1.16 }, to: { time: 1_700_000_600, price: 1.17 } },
  ],
};
const btcusd: ChartSetup = { type: 'line', studies: [{ id: 's1', kind: 'rsi', period: 14, color: '#26c6da' }], drawings: [] };

describe('chart setups in the front settings', () => {
  it('merges pair by pair, removes with null, and comes back with the user', async () => {
    const u = await register(server);
    const first = await server.api('PATCH', '/api/v2/profile/front-settings', { chart_setups: { EURUSD: eurusd } }, u.token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.chart_setups).toEqual({ EURUSD: eurusd });
    const second = await server.api('PATCH', '/api/v2/profile/front-settings', { chart_setups: { BTCUSD: btcusd }, theme: 'light' }, u.token);
    expect(second.body.data.chart_setups).toEqual({ EURUSD: eurusd, BTCUSD: btcusd });
    expect(second.body.data.theme).toBe('light');
    // Another device: the login answer carries the setups.
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.body.data.front_settings.chart_setups).toEqual({ EURUSD: eurusd, BTCUSD: btcusd });
    const removed = await server.api('PATCH', '/api/v2/profile/front-settings', { chart_setups: { EURUSD: null } }, u.token);
    expect(removed.body.data.chart_setups).toEqual({ BTCUSD: btcusd });
  });

  it('refuses malformed or oversized setups with 400 and stores nothing', async () => {
    const u = await register(server);
    await server.api('PATCH', '/api/v2/profile/front-settings', { chart_setups: { EURUSD: eurusd } }, u.token);
    const study = { id: 's1', kind: 'sma', period: 20, color: '#f5a623' };
    const hline = { id: 'd1', kind: 'hline', price: 1 };
    const bad: unknown[] = [
      {},
      { 'EUR USD': btcusd },
      { EURUSD: { ...btcusd, type: 'renko' } },
      { EURUSD: { ...btcusd, studies: [{ ...study, kind: 'ichimoku' }] } },
      { EURUSD: { ...btcusd, studies: [{ ...study, period: 1 }] } },
      { EURUSD: { ...btcusd, studies: [{ ...study, period: 20.5 }] } },
      { EURUSD: { ...btcusd, studies: [{ ...study, color: 'red' }] } },
      { EURUSD: { ...btcusd, studies: [{ ...study, extra: 1 }] } },
      { EURUSD: { ...btcusd, studies: [{ id: 's1', kind: 'macd', fast: 26, slow: 12, signal: 9, color: '#f5a623', signalColor: '#4aa3ff' }] } },
      { EURUSD: { ...btcusd, studies: Array.from({ length: MAX_STUDIES + 1 }, (_, i) => ({ ...study, id: `s${i}` })) } },
      { EURUSD: { ...btcusd, drawings: Array.from({ length: MAX_DRAWINGS + 1 }, (_, i) => ({ ...hline, id: `d${i}` })) } },
      { EURUSD: { ...btcusd, drawings: [{ id: 'd1', kind: 'trend', from: { time: 1, price: 1 } }] } },
      { EURUSD: { ...btcusd, drawings: [{ ...hline, price: -1 }] } },
      Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`P${i}`, btcusd])),
      'EURUSD',
    ];
    for (const chart_setups of bad) {
      const r = await server.api('PATCH', '/api/v2/profile/front-settings', { chart_setups }, u.token);
      expect(r.status, JSON.stringify(chart_setups).slice(0, 200)).toBe(400);
      expect(r.body.success).toBe(false);
    }
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.body.data.front_settings.chart_setups).toEqual({ EURUSD: eurusd });
  });

  it('reads a broken stored value as no setups and keeps the other settings', async () => {
    const u = await register(server);
    await server.api('PATCH', '/api/v2/profile/front-settings', { theme: 'light' }, u.token);
    const row = await server.ctx.db.selectFrom('users').select('front_settings').where('id', '=', u.userId).executeTakeFirstOrThrow();
    const broken = { ...JSON.parse(row.front_settings), chart_setups: { EURUSD: { type: 'renko' } } };
    await server.ctx.db.updateTable('users').set({ front_settings: JSON.stringify(broken) }).where('id', '=', u.userId).execute();
    const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
    expect(me.status).toBe(200);
    expect(me.body.data.front_settings.theme).toBe('light');
    expect(me.body.data.front_settings.chart_setups).toEqual({});
  });
});
