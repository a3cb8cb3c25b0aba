/**
 * Bad input to the authentication routes: every registration rule with its message, wrong
 * types, missing fields, oversized strings, malformed JSON, array and empty bodies. Each answer
 * is a 4xx with the envelope (never a 5xx) and leaves every auth-related table as it was.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { register, snapshot, validRegistration, type Registered } from '../support/auth';

const server = useTestServer({ RATE_LIMIT: 'false' });
let user: Registered;
beforeAll(async () => {
  user = await register(server);
});

function expectFailure(r: { status: number; body: any }, status: number, message?: string) {
  expect(r.status).toBe(status);
  expect(r.body.success).toBe(false);
  expect(r.body.data).toBeNull();
  expect(typeof r.body.error).toBe('string');
  expect(r.body.error_message).toBe(r.body.error);
  if (message !== undefined) expect(r.body.error_message).toBe(message);
}

const long = 'a'.repeat(10_000);

describe('registration rules (spec section 5), one failing case per rule', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['username missing', { username: undefined }, 'username', 'Username is required'],
    ['username empty', { username: '' }, 'username', 'Username is required'],
    ['username too short', { username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    ['username too long', { username: 'a'.repeat(33) }, 'username', 'Username must be at most 32 characters'],
    ['username with an underscore', { username: 'bad_name' }, 'username', 'Username may contain only English letters and digits'],
    ['username in Cyrillic', { username: 'трейдер' }, 'username', 'Username may contain only English letters and digits'],
    ['email missing', { email: undefined }, 'email', 'Email is required'],
    ['email invalid', { email: 'not-an-email' }, 'email', 'Please enter a valid email'],
    ['email too long', { email: `${'a'.repeat(250)}@example.com` }, 'email', 'Email must be at most 254 characters'],
    ['password missing', { password: undefined }, 'password', 'Password is required'],
    ['password short', { password: 'Ab1!', password_confirmation: 'Ab1!' }, 'password', 'Password must be at least 8 characters'],
    ['password with a space', { password: 'Str0ng! Pass', password_confirmation: 'Str0ng! Pass' }, 'password', 'Password must not contain spaces'],
    ['password without lowercase', { password: 'STR0NG!PASS', password_confirmation: 'STR0NG!PASS' }, 'password', 'Password must contain at least one lowercase letter'],
    ['password without uppercase', { password: 'str0ng!pass', password_confirmation: 'str0ng!pass' }, 'password', 'Password must contain at least one uppercase letter'],
    ['password without a number', { password: 'Strong!Pass', password_confirmation: 'Strong!Pass' }, 'password', 'Password must contain at least one number'],
    ['password without a special character', { password: 'Str0ngPass', password_confirmation: 'Str0ngPass' }, 'password', 'Password must contain at least one special character'],
    ['password too long', { password: 'Aa1!' + 'x'.repeat(125), password_confirmation: 'Aa1!' + 'x'.repeat(125) }, 'password', 'Password must be at most 128 characters'],
    ['confirmation missing', { password_confirmation: undefined }, 'password_confirmation', 'Password confirmation is required'],
    ['confirmation different', { password_confirmation: 'Str0ng!Pasz' }, 'password_confirmation', 'Passwords do not match'],
    ['first name missing', { first_name: undefined }, 'first_name', 'First name is required'],
    ['first name blank', { first_name: '   ' }, 'first_name', 'First name is required'],
    ['last name missing', { last_name: '' }, 'last_name', 'Last name is required'],
    ['phone missing', { phone: undefined }, 'phone', 'Phone is required'],
    ['phone with letters', { phone: '+1 555 CALL NOW' }, 'phone', 'Please enter a valid phone number'],
    ['phone too few digits', { phone: '+12 345' }, 'phone', 'Please enter a valid phone number'],
    ['phone too many digits', { phone: '+1234567890123456' }, 'phone', 'Please enter a valid phone number'],
    ['currency missing', { currency: undefined }, 'currency', 'Currency is required'],
    ['currency unknown', { currency: 'XXX' }, 'currency', 'Unknown currency'],
    ['terms not accepted', { terms_accepted: false }, 'terms_accepted', 'Please accept terms and privacy policy'],
    ['terms missing', { terms_accepted: undefined }, 'terms_accepted', 'Please accept terms and privacy policy'],
    ['terms as a string', { terms_accepted: 'true' }, 'terms_accepted', 'Please accept terms and privacy policy'],
    ['language unknown', { language: 'de' }, 'language', 'Language must be en, ru or es'],
    ['tracking field too long', { referrer: 'https://x.test/' + 'a'.repeat(2048) }, 'referrer', 'Must be at most 2048 characters'],
    ['tracking field not text', { utm_source: 12 }, 'utm_source', 'Tracking fields must be text'],
  ];

  it.each(cases)('%s', async (_name, overrides, field, message) => {
    const before = await snapshot(server);
    const payload = validRegistration(overrides);
    for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete payload[k];
    const r = await server.api('POST', '/api/platform/auth/register', payload);
    expectFailure(r, 400, message);
    expect(r.body.details).toContainEqual({ field, message });
    expect(await snapshot(server)).toEqual(before);
  });

  it('accepts the edge values: 3-letter username, 8-character password, 7-digit phone, lower-case currency', async () => {
    const r = await server.api(
      'POST',
      '/api/platform/auth/register',
      validRegistration({
        username: 'Ab7',
        password: 'Aa1!aaaa',
        password_confirmation: 'Aa1!aaaa',
        phone: '1234567',
        currency: 'gbp',
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.user.balances.GBP).toEqual({ RealBalance: 0, DemoBalance: 10000 });
  });
});

describe('wrong types, missing fields and odd bodies never reach a 5xx or change anything', () => {
  const routes = [
    '/api/platform/auth/register',
    '/api/platform/auth/login',
    '/api/platform/auth/refresh',
    '/api/platform/auth/forgot-password',
    '/api/platform/password/confirm-reset-password',
    '/api/platform/auth/reset-password',
    '/api/platform/auth/verify-email',
    '/api/platform/auth/resend-verification',
    '/api/admin/session',
  ];
  const badBodies: Array<[string, unknown]> = [
    ['numbers for strings', { username: 12345, email: 42, password: 7, token: 9, refresh_token: 1, code: 123456, newPassword: 1 }],
    ['arrays for strings', { username: ['a'], email: ['a@b.co'], password: ['x'], token: ['t'], refresh_token: ['r'], code: ['123456'] }],
    ['objects for strings', { username: { a: 1 }, email: { $ne: '' }, password: { $gt: '' }, token: {}, refresh_token: {}, code: {} }],
    ['nulls', { username: null, email: null, password: null, token: null, refresh_token: null, code: null, newPassword: null }],
    ['10k-character strings', { username: long, email: `${long}@x.co`, password: long, token: long, refresh_token: long, code: long, newPassword: long, login: long }],
    ['an empty object', {}],
    ['a JSON array', [{ username: 'a' }]],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['malformed JSON', '{"username": "abc",'],
  ];

  for (const route of routes) {
    it.each(badBodies)(`${route}: %s -> 4xx`, async (_name, body) => {
      const before = await snapshot(server);
      const r = await server.api('POST', route, body);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expectFailure(r, r.status);
      expect(await snapshot(server)).toEqual(before);
    });

    it(`${route}: an empty JSON body, no body, a text or form body are 4xx`, async () => {
      const before = await snapshot(server);
      const empty = await server.raw('POST', route, { body: '', headers: { 'content-type': 'application/json' } });
      expect(empty.status).toBe(400);
      expect((await empty.json()).success).toBe(false);
      const none = await server.raw('POST', route);
      expect(none.status).toBe(400);
      expect((await none.json()).success).toBe(false);
      const text = await server.raw('POST', route, { body: 'username=a', headers: { 'content-type': 'text/plain' } });
      // Fastify parses text/plain as a string, which is not a JSON object.
      expect(text.status).toBe(400);
      expect((await text.json()).error_message).toBe('Request body must be a JSON object');
      const form = await server.raw('POST', route, { body: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(form.status).toBe(415);
      expect((await form.json()).error_message).toBe('Unsupported content type');
      expect(await snapshot(server)).toEqual(before);
    });
  }

  it('the typed messages say which field is wrong', async () => {
    const r1 = await server.api('POST', '/api/platform/auth/register', validRegistration({ username: 12345 }));
    expectFailure(r1, 400, 'Username must be text');
    const r2 = await server.api('POST', '/api/platform/auth/register', validRegistration({ email: ['a@b.co'] }));
    expectFailure(r2, 400, 'Email must be text');
    const r3 = await server.api('POST', '/api/platform/auth/register', validRegistration({ password: { a: 1 } }));
    expectFailure(r3, 400, 'Password must be text');
    const r4 = await server.api('POST', '/api/platform/auth/register', '[1,2]');
    expectFailure(r4, 400, 'Request body must be a JSON object');
    const r5 = await server.api('POST', '/api/platform/auth/register', '{"a":');
    expectFailure(r5, 400, 'Malformed JSON body');
  });

  it('login with injection-shaped input is "Missing credentials", not a match', async () => {
    const r = await server.api('POST', '/api/platform/auth/login', { username: user.username, password: { $ne: null } });
    expectFailure(r, 400, 'Missing credentials');
  });

  it('authenticated routes check the token before the body', async () => {
    const r = await server.api('PATCH', '/api/v2/profile/front-settings', '{bad');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    const s = await server.api('PATCH', '/api/v2/profile/front-settings', { theme: long }, user.token);
    expectFailure(s, 400);
  });
});
