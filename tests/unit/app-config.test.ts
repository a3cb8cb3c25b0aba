/**
 * The application configuration of spec section 9 and its start-up check (a production build
 * with a missing or localhost-based API or socket address is flagged).
 */
import { describe, expect, it } from 'vitest';
import { configProblems, readAppConfig } from '../../src/shared/app-config';

describe('application configuration', () => {
  it('has the spec defaults: version 1.0.0, development, debug on, analytics off, notifications on', () => {
    expect(readAppConfig({})).toMatchObject({
      name: 'TradeTerminal',
      version: '1.0.0',
      environment: 'development',
      debug: true,
      analytics: false,
      notifications: true,
      apiUrl: '',
      socketUrl: '',
      links: { supportEmail: 'support@tradeterminal.local' },
    });
  });

  it('reads a production build: debug off unless asked, flags from the build variables', () => {
    const config = readAppConfig({ MODE: 'production', PROD: true, VITE_ANALYTICS: 'true', VITE_NOTIFICATIONS: 'false' });
    expect(config).toMatchObject({ environment: 'production', debug: false, analytics: true, notifications: false });
  });

  it('flags a missing or localhost-based API or socket address in production only', () => {
    const prod = readAppConfig({ MODE: 'production', PROD: true });
    expect(configProblems(prod, 'https://trade.example')).toEqual([]);
    expect(configProblems(prod, null)).toEqual(['API address is missing', 'Socket address is missing']);
    expect(configProblems(prod, 'http://localhost:3000')).toEqual([
      'API address points at localhost: http://localhost:3000',
      'Socket address points at localhost: http://localhost:3000',
    ]);
    const mixed = readAppConfig({ MODE: 'production', VITE_API_URL: 'https://api.trade.example', VITE_SOCKET_URL: 'ws://127.0.0.1:3000' });
    expect(configProblems(mixed, 'https://trade.example')).toEqual(['Socket address points at localhost: ws://127.0.0.1:3000']);
    expect(configProblems(readAppConfig({ VITE_API_URL: 'http://localhost:3000' }), null)).toEqual([]);
  });
});
