/**
 * The operator CLI as a person runs it (`npx tsx server/cli/admin.ts ...` in a child process,
 * on the DATA_DIR of a running test server): `session` prints a one-time admin link whose token
 * the server exchanges once; `outbox` prints the reset code; `help` and bad input.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server-fixture';
import { register, resetCodeFrom } from '../support/auth';
import { databaseEnv } from '../support/test-database';

const server = useTestServer({ RATE_LIMIT: 'false' });

function admin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'server/cli/admin.ts', ...args],
      { env: { ...process.env, ...databaseEnv(server.dataDir), LOG_LEVEL: 'silent', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('npm run admin -- session <username>', () => {
  it('prints a /trading?token= link whose token opens an admin session once', async () => {
    const u = await register(server);
    const run = await admin(['session', u.username], { PUBLIC_URL: 'https://trade.example.test' });
    expect(run.code, run.stderr).toBe(0);
    const m = /^https:\/\/trade\.example\.test\/trading\?token=([A-Za-z0-9_-]{43})$/m.exec(run.stdout);
    expect(m, run.stdout).not.toBeNull();
    const token = m![1];
    const stored = await server.ctx.db.selectFrom('admin_tokens').selectAll().where('user_id', '=', u.userId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(token);

    const r = await server.api('POST', '/api/admin/session', { token });
    expect(r.status).toBe(200);
    expect(r.body.data.session_type).toBe('admin');
    expect(r.body.data.user.user_id).toBe(u.userId);
    expect((await server.api('POST', '/api/admin/session', { token })).status).toBe(401);
  });

  it('uses http://HOST:PORT without PUBLIC_URL and fails clearly for an unknown user', async () => {
    const u = await register(server);
    const run = await admin(['session', u.email], { HOST: '0.0.0.0', PORT: '4321' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^http:\/\/localhost:4321\/trading\?token=[A-Za-z0-9_-]{43}$/m);

    const missing = await admin(['session', 'nosuchuser']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No user "nosuchuser"');
    const usage = await admin(['session']);
    expect(usage.code).toBe(2);
  });
});

describe('npm run admin -- outbox', () => {
  it('prints the latest messages, including a reset code that works', async () => {
    const u = await register(server);
    await server.api('POST', '/api/platform/auth/forgot-password', { email: u.email });
    const run = await admin(['outbox', '--limit', '1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`email -> ${u.email}`);
    expect(run.stdout).toContain('Subject: Your password reset code');
    const code = resetCodeFrom(run.stdout);
    const confirm = await server.api('POST', '/api/platform/password/confirm-reset-password', { email: u.email, code });
    expect(confirm.status).toBe(200);

    const bad = await admin(['outbox', '--limit', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number');
  });

  it('help lists the commands', async () => {
    const run = await admin(['help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('session <username|email>');
    expect(run.stdout).toContain('outbox [--limit N]');
    const unknown = await admin(['frobnicate']);
    expect(unknown.code).toBe(2);
  });
});
