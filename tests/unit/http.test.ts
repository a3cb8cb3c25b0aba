/**
 * The HTTP client (src/services/http.ts) and the API functions (src/services/api.ts) against a
 * real local HTTP server whose answers each test scripts: the spec section 8 error table and
 * status mapping, status 0 without a response, the bearer token, 401 handling with one shared
 * token refresh, and the section 5 response checks with the section 8 fallback messages.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_TIMEOUT_MS, ApiError, createHttpClient, errorFromResponse, type HttpAuth, type RequestOptions } from '../../src/services/http';
import { UPLOAD_TIMEOUT_MS, createProfileApi } from '../../src/services/profile-api';
import { createApi, parseLoginResponse } from '../../src/services/api';

// ---- a scriptable server ----------------------------------------------------------------------

interface Reply {
  status?: number;
  json?: unknown;
  text?: string;
  delayMs?: number;
}
interface Seen {
  method: string;
  url: string;
  authorization: string | null;
  body: unknown;
}
type Handler = (seen: Seen) => Reply | Promise<Reply>;

let handler: Handler = () => ({ status: 500, json: { success: false, error: 'no handler' } });
const seen: Seen[] = [];
let server: http.Server;
let baseURL = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: typeof req.headers.authorization === 'string' ? req.headers.authorization : null,
        body: raw ? JSON.parse(raw) : undefined,
      };
      seen.push(entry);
      const reply = await handler(entry);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      if (reply.text !== undefined) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/html' });
        res.end(reply.text);
      } else {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.json ?? null));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  seen.length = 0;
  handler = () => ({ status: 500, json: { success: false, error: 'no handler' } });
});

const ok = (data: unknown) => ({ json: { success: true, data, error: null, error_message: null } });
const fail = (status: number, message: string) => ({ status, json: { success: false, data: null, error: message, error_message: message } });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

// ---- section 8: the error table ---------------------------------------------------------------

describe('response-level errors (spec section 8)', () => {
  const client = () => createHttpClient({ baseURL });
  const call = (reply: Reply, options: RequestOptions = { auth: false }) => {
    handler = () => reply;
    return client().request('/x', options);
  };

  it('returns the body of a successful envelope', async () => {
    await expect(call(ok({ a: 1 }))).resolves.toEqual({ success: true, data: { a: 1 }, error: null, error_message: null });
  });

  it.each([
    ['success: false with error', { success: false, error: 'Pair not found' }, 'Pair not found'],
    ['error_message wins over error', { success: false, error: 'short', error_message: 'The long text' }, 'The long text'],
    ['error alone, even with success true', { success: true, error: 'Broken' }, 'Broken'],
    ['error_message alone', { error_message: 'Only this' }, 'Only this'],
    ['status: false with message', { status: false, message: 'Declined' }, 'Declined'],
    ['success: false without any text', { success: false }, 'Request failed'],
    ['status: false without any text', { status: false, data: null }, 'Request failed'],
  ])('%s on HTTP 200 is an error with status 400', async (_, json, message) => {
    const error = await failure(call({ status: 200, json }));
    expect(error.status).toBe(400);
    expect(error.message).toBe(message);
  });

  it.each([
    ['Invalid username or password', 401],
    ['Unauthorized', 401],
    ['Authentication failed', 401],
    ['Forbidden', 403],
    ['Access denied', 403],
    ['Not found', 404],
    ['User not found', 404],
    ['Insufficient balance', 400],
  ])('"%s" in a failed envelope gives status %i', async (message, status) => {
    const error = await failure(call({ status: 200, json: { success: false, error: message } }));
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it('keeps the real status of an HTTP failure, with the envelope message when there is one', async () => {
    const teapot = await failure(call(fail(422, 'Validation failed')));
    expect([teapot.status, teapot.message]).toEqual([422, 'Validation failed']);
    const server500 = await failure(call(fail(500, 'Internal server error')));
    expect([server500.status, server500.message]).toEqual([500, 'Internal server error']);
    // The text mapping is for failed envelopes on a successful HTTP status only.
    const conflict = await failure(call(fail(409, 'Not found')));
    expect(conflict.status).toBe(409);
    const html = await failure(call({ status: 502, text: '<html>Bad gateway</html>' }));
    expect([html.status, html.message, html.serverMessage]).toEqual([502, 'Request failed', null]);
  });

  it('passes the field details of a validation failure on', async () => {
    const error = await failure(
      call({ status: 400, json: { success: false, data: null, error: 'Validation failed', error_message: 'Validation failed', details: [{ field: 'email', message: 'Please enter a valid email' }] } }),
    );
    expect(error.details).toEqual([{ field: 'email', message: 'Please enter a valid email' }]);
  });

  it('is status 0 without a response: refused connection and timeout', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await failure(createHttpClient({ baseURL: `http://127.0.0.1:${port}` }).request('/x', { auth: false }));
    expect([refused.status, refused.message, refused.serverMessage]).toEqual([0, 'Request failed', null]);

    handler = () => ({ ...ok({}), delayMs: 400 });
    const timedOut = await failure(createHttpClient({ baseURL, timeout: 100 }).request('/slow', { auth: false }));
    expect(timedOut.status).toBe(0);
  });

  it('honours a per-request timeout over the client default, both ways', async () => {
    handler = () => ({ ...ok({ slow: true }), delayMs: 300 });
    // A short client default, a longer per-request timeout (an upload): the answer arrives.
    const patient = createHttpClient({ baseURL, timeout: 100 });
    expect(await patient.request('/upload', { auth: false, timeout: 2_000 })).toMatchObject({ data: { slow: true } });
    // Without the option the same client still gives up after its own 100 ms.
    expect((await failure(patient.request('/upload', { auth: false }))).status).toBe(0);
    // A long client default, a short per-request timeout: that call gives up.
    const cut = await failure(createHttpClient({ baseURL, timeout: 5_000 }).request('/upload', { auth: false, timeout: 50 }));
    expect([cut.status, cut.message]).toEqual([0, 'Request failed']);
  });

  it('maps responses without a server too (errorFromResponse)', () => {
    expect(errorFromResponse(200, { success: true, data: 1, error: null, error_message: null })).toBeNull();
    expect(errorFromResponse(204, undefined)).toBeNull();
    expect(errorFromResponse(200, 'plain text')).toBeNull();
    expect(errorFromResponse(401, { success: false, error: 'Unauthorized' })?.status).toBe(401);
  });
});

// ---- the bearer token and 401 handling --------------------------------------------------------

function authBridge(initial: { token: string | null; refreshToken: string | null }, refresh: (rt: string) => Promise<{ token: string; refreshToken: string | null }>) {
  const state = { ...initial };
  const bridge: HttpAuth & { state: typeof state } = {
    state,
    getToken: () => state.token,
    getRefreshToken: () => state.refreshToken,
    refresh: vi.fn(refresh),
    onTokensRefreshed: vi.fn((tokens) => {
      state.token = tokens.token;
      state.refreshToken = tokens.refreshToken;
    }),
    onUnauthorized: vi.fn(() => {
      state.token = null;
    }),
  };
  return bridge;
}

/** A protected resource that accepts only `Bearer <valid>`. */
const protectedResource = (valid: string): Handler => (s) => (s.authorization === `Bearer ${valid}` ? ok({ who: 'me' }) : fail(401, 'Unauthorized'));

describe('bearer token and 401 handling', () => {
  it('sends the bearer token on bearer calls only', async () => {
    handler = () => ok({});
    const client = createHttpClient({ baseURL });
    client.setAuth(authBridge({ token: 'tok-1', refreshToken: 'r' }, async () => ({ token: 'x', refreshToken: 'y' })));
    await client.request('/a');
    await client.request('/b', { auth: false, method: 'POST', body: { username: 'u' } });
    expect(seen.map((s) => [s.url, s.authorization])).toEqual([
      ['/a', 'Bearer tok-1'],
      ['/b', null],
    ]);
    expect(seen[1].body).toEqual({ username: 'u' });
  });

  it('refreshes once and retries with the new token, telling the session', async () => {
    handler = protectedResource('tok-2');
    const client = createHttpClient({ baseURL });
    const bridge = authBridge({ token: 'tok-1', refreshToken: 'ref-1' }, async () => ({ token: 'tok-2', refreshToken: 'ref-2' }));
    client.setAuth(bridge);
    await expect(client.request('/me')).resolves.toMatchObject({ data: { who: 'me' } });
    expect(bridge.refresh).toHaveBeenCalledTimes(1);
    expect(bridge.refresh).toHaveBeenCalledWith('ref-1');
    expect(bridge.onTokensRefreshed).toHaveBeenCalledWith({ token: 'tok-2', refreshToken: 'ref-2' });
    expect(bridge.onUnauthorized).not.toHaveBeenCalled();
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('treats an "Unauthorized" envelope on HTTP 200 like a 401', async () => {
    handler = (s) => (s.authorization === 'Bearer tok-2' ? ok({}) : { status: 200, json: { success: false, error: 'Unauthorized' } });
    const client = createHttpClient({ baseURL });
    const bridge = authBridge({ token: 'tok-1', refreshToken: 'ref-1' }, async () => ({ token: 'tok-2', refreshToken: 'ref-2' }));
    client.setAuth(bridge);
    await client.request('/me');
    expect(bridge.refresh).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh between concurrent 401s (single flight)', async () => {
    handler = protectedResource('tok-2');
    const client = createHttpClient({ baseURL });
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const bridge = authBridge({ token: 'tok-1', refreshToken: 'ref-1' }, async () => {
      await gate;
      return { token: 'tok-2', refreshToken: 'ref-2' };
    });
    client.setAuth(bridge);
    const calls = [client.request('/a'), client.request('/b'), client.request('/c')];
    await vi.waitFor(() => expect(seen.length).toBe(3));
    await new Promise((r) => setTimeout(r, 20));
    release();
    const results = await Promise.all(calls);
    expect(results).toHaveLength(3);
    expect(bridge.refresh).toHaveBeenCalledTimes(1);
    expect(seen.filter((s) => s.authorization === 'Bearer tok-2').map((s) => s.url).sort()).toEqual(['/a', '/b', '/c']);
  });

  it('does not refresh again for a request that was sent before a finished refresh', async () => {
    handler = protectedResource('tok-2');
    const client = createHttpClient({ baseURL });
    const bridge = authBridge({ token: 'tok-1', refreshToken: 'ref-1' }, async () => ({ token: 'tok-2', refreshToken: 'ref-2' }));
    client.setAuth(bridge);
    await client.request('/first');
    // The session already holds tok-2; a late 401 for tok-1 just retries with it.
    bridge.state.token = 'tok-1';
    handler = (s) => {
      if (s.authorization === 'Bearer tok-1') bridge.state.token = 'tok-2';
      return protectedResource('tok-2')(s);
    };
    await client.request('/late');
    expect(bridge.refresh).toHaveBeenCalledTimes(1);
  });

  it('logs out locally when the refresh fails, and the caller gets the 401', async () => {
    handler = protectedResource('never');
    const client = createHttpClient({ baseURL });
    const bridge = authBridge({ token: 'tok-1', refreshToken: 'ref-1' }, async () => {
      throw new ApiError(401, 'Token refresh failed');
    });
    client.setAuth(bridge);
    const error = await failure(client.request('/me'));
    expect(error.status).toBe(401);
    expect(bridge.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(1);
  });

  it('keeps the session when the refresh gets no answer (network failure, 5xx): the caller gets that failure', async () => {
    handler = protectedResource('never');
    const client = createHttpClient({ baseURL });
    for (const status of [0, 503]) {
      const bridge = authBridge({ token: 'tok-1', refreshToken: 'ref-1' }, async () => {
        throw new ApiError(status, 'Request failed');
      });
      client.setAuth(bridge);
      const error = await failure(client.request('/me'));
      expect(error.status).toBe(status);
      expect(bridge.onUnauthorized).not.toHaveBeenCalled();
    }
  });

  it('logs out locally when the retry is refused again', async () => {
    handler = protectedResource('never');
    const client = createHttpClient({ baseURL });
    const bridge = authBridge({ token: 'tok-1', refreshToken: 'ref-1' }, async () => ({ token: 'tok-2', refreshToken: 'ref-2' }));
    client.setAuth(bridge);
    const error = await failure(client.request('/me'));
    expect(error.status).toBe(401);
    expect(bridge.refresh).toHaveBeenCalledTimes(1);
    expect(bridge.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(2);
  });

  it('logs out locally without a refresh token, and never for calls without the bearer token', async () => {
    handler = () => fail(401, 'Unauthorized');
    const client = createHttpClient({ baseURL });
    const bridge = authBridge({ token: 'tok-1', refreshToken: null }, async () => ({ token: 'x', refreshToken: null }));
    client.setAuth(bridge);
    await failure(client.request('/me'));
    expect(bridge.refresh).not.toHaveBeenCalled();
    expect(bridge.onUnauthorized).toHaveBeenCalledTimes(1);

    const other = authBridge({ token: 'tok-1', refreshToken: 'ref' }, async () => ({ token: 'x', refreshToken: null }));
    client.setAuth(other);
    const login = await failure(client.request('/api/platform/auth/login', { method: 'POST', auth: false, body: {} }));
    expect(login.status).toBe(401);
    await failure(client.request('/api/platform/auth/logout', { method: 'POST', body: {}, recoverUnauthorized: false }));
    expect(other.refresh).not.toHaveBeenCalled();
    expect(other.onUnauthorized).not.toHaveBeenCalled();
  });
});

// ---- api.ts: section 5 checks and section 8 fallbacks -----------------------------------------

const user = {
  user_id: 1,
  username: 'trader7',
  email: 'trader7@example.com',
  email_verified: false,
  two_factor_enabled: false,
  balances: { USD: { RealBalance: 0, DemoBalance: 10000 } },
  front_settings: { avatar_url: null, currentPair: null, currentTimeframe: null, balance_type: null, current_currency: null, language: null, theme: null },
  created_at: 1_700_000_000,
};

describe('login response check (spec section 5)', () => {
  it('accepts token and user at the top level', () => {
    expect(parseLoginResponse({ token: 't', user })).toEqual({ kind: 'authenticated', token: 't', refreshToken: null, user });
  });
  it('accepts success with data holding token or access_token, refresh_token and user', () => {
    expect(parseLoginResponse({ success: true, data: { token: 't', refresh_token: 'r', user } })).toEqual({ kind: 'authenticated', token: 't', refreshToken: 'r', user });
    expect(parseLoginResponse({ success: true, data: { access_token: 'a', refresh_token: 'r', user } })).toMatchObject({ token: 'a' });
  });
  it('recognises a second-factor challenge', () => {
    expect(parseLoginResponse({ success: true, data: { two_factor_required: true, challenge: 'c1' } })).toEqual({ kind: 'twoFactorRequired', challenge: 'c1' });
  });
  it.each([
    ['no refresh token in data', { success: true, data: { token: 't', user } }],
    ['no success flag', { data: { token: 't', refresh_token: 'r', user } }],
    ['a broken user', { success: true, data: { token: 't', refresh_token: 'r', user: { username: 'x' } } }],
    ['nothing', null],
  ])('rejects %s with "Login failed - unexpected response format"', (_, body) => {
    expect(() => parseLoginResponse(body)).toThrow('Login failed - unexpected response format');
  });
});

describe('api calls', () => {
  const api = () => {
    const client = createHttpClient({ baseURL });
    client.setAuth(authBridge({ token: 'tok', refreshToken: 'ref' }, async () => ({ token: 'tok', refreshToken: 'ref' })));
    return createApi(client);
  };

  it('logs in without the bearer token and returns the session', async () => {
    handler = () => ok({ token: 't', access_token: 't', refresh_token: 'r', expires_in: 900, user, session_type: 'user' });
    await expect(api().login({ username: 'trader7', password: 'pw' })).resolves.toEqual({ kind: 'authenticated', token: 't', refreshToken: 'r', user });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/platform/auth/login', authorization: null, body: { username: 'trader7', password: 'pw' } });
  });

  it('uses the server text when there is one, else the fallback of the call', async () => {
    handler = () => fail(401, 'Invalid credentials');
    expect((await failure(api().login({ username: 'a', password: 'b' }))).message).toBe('Invalid credentials');

    handler = () => ({ status: 500, text: 'oops' });
    const me = await failure(api().me());
    expect([me.status, me.message]).toEqual([500, 'Failed to get user data']);

    handler = () => ({ status: 200, json: { success: false } });
    expect((await failure(api().register({} as never))).message).toBe('Registration failed');
    expect((await failure(api().forgotPassword('a@b.co'))).message).toBe('Password reset request failed');
    expect((await failure(api().resetPassword({ token: 't', newPassword: 'p' }))).message).toBe('Password reset failed');
    expect((await failure(api().verifyEmail('t'))).message).toBe('Email verification failed');
    expect((await failure(api().resendVerification('a@b.co'))).message).toBe('Failed to resend verification email');
    expect((await failure(api().confirmResetPassword({ email: 'a@b.co', code: '123456' }))).message).toBe('Password reset confirmation failed');
    expect((await failure(api().updateFrontSettings({ theme: 'dark' }))).message).toBe('Front settings update failed');
    expect((await failure(api().resetDemoBalance('USD'))).message).toBe('Failed to reset demo balance');
  });

  it('requires success and data for registration and refresh, a success flag for the rest', async () => {
    handler = () => ({ json: { success: true, data: null } });
    expect((await failure(api().register({} as never))).message).toBe('Registration failed');
    expect((await failure(api().refresh('ref'))).message).toBe('Token refresh failed');
    handler = () => ({ json: { data: { message: 'sent' } } });
    expect((await failure(api().forgotPassword('a@b.co'))).message).toBe('Password reset request failed');
    handler = () => ok({ message: 'sent' });
    await expect(api().forgotPassword('a@b.co')).resolves.toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ url: '/api/platform/auth/forgot-password', authorization: null, body: { email: 'a@b.co' } });
  });

  it('refreshes with the refresh token and keeps the old one when the server sends none', async () => {
    handler = () => ok({ token: 'new', access_token: 'new', expires_in: 900 });
    await expect(api().refresh('ref-1')).resolves.toEqual({ token: 'new', refreshToken: 'ref-1' });
    expect(seen[0]).toMatchObject({ url: '/api/platform/auth/refresh', authorization: null, body: { refresh_token: 'ref-1' } });
  });

  it('reads the user, the saved settings, the confirmed reset token and the new demo balance', async () => {
    handler = (s) => {
      if (s.url === '/api/platform/auth/me') return ok(user);
      if (s.url === '/api/v2/profile/front-settings') return ok({ ...user.front_settings, theme: 'light' });
      if (s.url === '/api/platform/password/confirm-reset-password') return ok({ token: 'reset-1' });
      if (s.url === '/api/v2/payments/reset-demo-balance') return ok({ new_balance: { USD: 10000 }, message: 'demo_reseted' });
      return fail(404, 'Not found');
    };
    await expect(api().me()).resolves.toEqual(user);
    await expect(api().updateFrontSettings({ theme: 'light' })).resolves.toMatchObject({ theme: 'light' });
    expect(seen[1]).toMatchObject({ method: 'PATCH', authorization: 'Bearer tok', body: { theme: 'light' } });
    await expect(api().confirmResetPassword({ email: 'a@b.co', code: '123456' })).resolves.toEqual({ token: 'reset-1' });
    await expect(api().resetDemoBalance('USD')).resolves.toEqual({ new_balance: { USD: 10000 }, message: 'demo_reseted' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: { currency: 'USD' } });
  });

  it('sends the refresh token with the user logout and uses the admin endpoint for admins', async () => {
    handler = () => ok({ message: 'Logged out' });
    await api().logout('ref-9');
    await api().adminLogout();
    expect(seen.map((s) => [s.url, s.authorization, s.body])).toEqual([
      ['/api/platform/auth/logout', 'Bearer tok', { refresh_token: 'ref-9' }],
      ['/api/admin/logout', 'Bearer tok', {}],
    ]);
  });
});

describe('profile uploads', () => {
  it('give the avatar and document uploads the long upload timeout, and nothing else', async () => {
    const calls: [string, RequestOptions | undefined][] = [];
    const document = { id: 1, type: 'passport', status: 'uploaded', files: [], created_at: 1, updated_at: 1, rejection_reason: null };
    const recorder = {
      setAuth: () => undefined,
      async request<T>(path: string, options?: RequestOptions): Promise<T> {
        calls.push([path, options]);
        const data = path.endsWith('/avatar') ? { avatar_url: '/uploads/avatars/a.webp' } : path.endsWith('/upload') ? { document } : {};
        return { success: true, data, error: null, error_message: null } as T;
      },
    };
    const profileApi = createProfileApi(recorder);
    await profileApi.uploadAvatar(new Blob(['x']), 'me.png');
    await profileApi.uploadDocuments('passport', [new File(['%PDF-'], 'a.pdf')]);
    await profileApi.changePassword({ old_password: 'a', new_password: 'b', confirm_password: 'b' });
    expect(calls.map(([path, o]) => [path, o?.timeout])).toEqual([
      ['/api/v2/profile/avatar', UPLOAD_TIMEOUT_MS],
      ['/api/v2/documents/upload', UPLOAD_TIMEOUT_MS],
      ['/api/v2/user/change-password', undefined],
    ]);
    expect(UPLOAD_TIMEOUT_MS).toBeGreaterThan(API_TIMEOUT_MS);
  });
});
