/**
 * Issue 26: the journal follows the device's zone. The SPA's journal call sends the zone the
 * browser reports as ?tz= (the server uses it when the profile names none; tests/server/
 * trader-journal.test.ts), so its days and hours agree with every other time on screen.
 */
import { describe, expect, it } from 'vitest';
import { createTraderToolsApi } from '../../src/services/trader-tools-actors';
import type { HttpClient, RequestOptions } from '../../src/services/http';

describe('the journal request', () => {
  it('carries the period and the device zone', async () => {
    const calls: { path: string; options?: RequestOptions }[] = [];
    const http: HttpClient = {
      request: (path, options) => {
        calls.push({ path, options });
        return Promise.reject(new Error('offline'));
      },
      setAuth: () => {},
    };
    await createTraderToolsApi(http)
      .journal('today')
      .catch(() => undefined);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(zone).toBeTruthy();
    expect(calls).toEqual([{ path: '/api/v2/statistics/me', options: expect.objectContaining({ method: 'GET', query: { period: 'today', tz: zone } }) }]);
  });
});
