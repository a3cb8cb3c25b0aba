/**
 * "No such user" must cost a login what "wrong password" costs, so answer times do not tell
 * which usernames exist. Checked by the work done, not by the clock (timing goals live in
 * benchmarks): argon2's verify is wrapped and counted while the real server answers.
 */
import { describe, expect, it, vi } from 'vitest';
import * as argon2 from '@node-rs/argon2';
import { useTestServer } from '../support/server-fixture';
import { register } from '../support/auth';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...actual, verify: vi.fn(actual.verify) };
});

const server = useTestServer({ RATE_LIMIT: 'false' });
const verify = vi.mocked(argon2.verify);

async function verificationsFor(username: string): Promise<number> {
  verify.mockClear();
  const r = await server.api('POST', '/api/platform/auth/login', { username, password: 'Wrong!Pass1' });
  expect(r.status).toBe(401);
  return verify.mock.calls.length;
}

describe('login work', () => {
  it('runs one argon2 verification for an unknown user, as for a wrong password', async () => {
    const u = await register(server);
    expect(await verificationsFor(u.username)).toBe(1);
    expect(await verificationsFor(`ghost${u.username}`)).toBe(1);
    expect(await verificationsFor(`nobody-${u.username}@example.com`)).toBe(1);
  });
});
