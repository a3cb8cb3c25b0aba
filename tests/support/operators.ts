/**
 * Operators for tests (issue 27): `createOperator` makes one through the operators service (as
 * the CLI would) and answers its password and TOTP secret; `op.code()` gives a fresh TOTP code
 * each call (a code works once, so it steps forward through the accepted window: at most three
 * logins per operator per 30 seconds); `consoleLogin` logs in and answers a client that sends the
 * session cookie and the CSRF header with every request.
 */
import { HOTP, Secret, TOTP } from 'otpauth';
import type { Envelope } from '../../contract/envelope';
import { CONSOLE_CSRF_HEADER, OPERATOR_COOKIE, type OperatorRole } from '../../contract/console';
import type { TestServer } from './server';

export interface TestOperator {
  id: number;
  username: string;
  role: OperatorRole;
  password: string;
  totpSecret: string;
  /** A TOTP code not used yet by this helper (the server accepts each step once). */
  code(): string;
}

let counter = 0;

export function totpCoder(secretBase32: string): () => string {
  let last = -Infinity;
  return () => {
    const current = TOTP.counter({ period: 30, timestamp: Date.now() });
    const step = Math.max(current - 1, last + 1);
    if (step > current + 1) throw new Error('no unused TOTP step left in the window: wait 30 s');
    last = step;
    return HOTP.generate({ secret: Secret.fromBase32(secretBase32), counter: step, algorithm: 'SHA1', digits: 6 });
  };
}

export async function createOperator(server: Pick<TestServer, 'ctx'>, role: OperatorRole, username = `${role}${++counter}${Date.now() % 100000}`): Promise<TestOperator> {
  const password = `pw-${username}-0123456789`;
  const created = await server.ctx.services.operators.create(
    { username, role, password },
    { operatorId: null, name: 'cli', role: 'cli', source: 'cli', osUser: 'test' },
  );
  return { id: created.operator.id, username, role, password, totpSecret: created.totp_secret, code: totpCoder(created.totp_secret) };
}

export interface ConsoleClient {
  cookie: string;
  api<T = any>(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Envelope<T> }>;
  raw(method: string, url: string, headers?: Record<string, string>): Promise<Response>;
}

/** The op_session cookie's value from a response's Set-Cookie. */
export function sessionCookieOf(res: Response): string | null {
  for (const line of res.headers.getSetCookie()) {
    const m = new RegExp(`^${OPERATOR_COOKIE}=([^;]*)`).exec(line);
    if (m) return m[1];
  }
  return null;
}

export function consoleClient(server: Pick<TestServer, 'baseUrl'>, cookie: string): ConsoleClient {
  const headers = (extra: Record<string, string>, body: boolean) => ({
    cookie: `${OPERATOR_COOKIE}=${cookie}`,
    [CONSOLE_CSRF_HEADER]: '1',
    ...(body ? { 'content-type': 'application/json' } : {}),
    ...extra,
  });
  return {
    cookie,
    async api(method, url, body, extra = {}) {
      const res = await fetch(server.baseUrl + url, { method, headers: headers(extra, body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed: any;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { success: false, data: null, error: `non-JSON response: ${text.slice(0, 200)}`, error_message: null };
      }
      return { status: res.status, body: parsed };
    },
    raw(method, url, extra = {}) {
      return fetch(server.baseUrl + url, { method, headers: headers(extra, false) });
    },
  };
}

/** Log in with password and a fresh code; throws unless it worked. */
export async function consoleLogin(server: Pick<TestServer, 'baseUrl'>, op: TestOperator): Promise<ConsoleClient> {
  const res = await fetch(`${server.baseUrl}/api/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONSOLE_CSRF_HEADER]: '1' },
    body: JSON.stringify({ username: op.username, password: op.password, totp: op.code() }),
  });
  const cookie = sessionCookieOf(res);
  if (res.status !== 200 || !cookie) throw new Error(`console login failed: ${res.status} ${await res.text()}`);
  return consoleClient(server, cookie);
}
