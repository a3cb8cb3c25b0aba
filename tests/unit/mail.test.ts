/**
 * The mailer's two paths: without SMTP the message lands in the outbox table; with SMTP_URL it
 * goes out over SMTP (to a minimal SMTP server in this test) and the outbox stays empty; a
 * failing SMTP server never fails `enqueue`.
 */
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../server/db';
import { Mailer, latestOutbox } from '../../server/domain/mail';

/** Just enough SMTP to accept one message per connection and record what was sent. */
function startSmtp(reject = false): Promise<{ port: number; messages: string[]; close: () => Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data) {
          if (line === '.') {
            data = false;
            socket.write(reject ? '554 rejected\r\n' : '250 queued\r\n');
          } else messages[messages.length - 1] += line + '\n';
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'MAIL' || verb === 'RCPT' || verb === 'RSET' || verb === 'NOOP') socket.write('250 ok\r\n');
        else if (verb === 'DATA') {
          data = true;
          messages.push('');
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('502 no\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({ port, messages, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

let dir: string;
let db: DB;
const errors: object[] = [];
const log = { error: (obj: object) => void errors.push(obj) };
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-mail-'));
  db = await openDatabase(path.join(dir, 'mail.db'));
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Mailer', () => {
  it('without SMTP writes the message to the outbox', async () => {
    const mailer = new Mailer({ db, from: 'TT <no-reply@tt.test>', now: () => 1_700_000_000_000, log });
    expect(mailer.mode).toBe('outbox');
    await mailer.enqueue({ to: 'Ann@Example.com', subject: 'Hello', text: 'Body 123456' });
    const rows = await latestOutbox(db, { limit: 5, recipient: 'ann@example.com' });
    expect(rows).toEqual([
      { id: expect.any(Number), channel: 'email', recipient: 'Ann@Example.com', subject: 'Hello', body: 'Body 123456', created_at: 1_700_000_000_000 },
    ]);
  });

  it('with SMTP_URL sends over SMTP and keeps nothing in the outbox', async () => {
    const smtp = await startSmtp();
    try {
      const before = (await latestOutbox(db, { limit: 100 })).length;
      const mailer = new Mailer({ db, from: 'TT <no-reply@tt.test>', now: () => Date.now(), log, smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
      expect(mailer.mode).toBe('smtp');
      await mailer.send({ to: 'bob@example.com', subject: 'Reset', text: 'Your reset code: 654321' });
      await mailer.close();
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]).toContain('Subject: Reset');
      expect(smtp.messages[0]).toContain('To: bob@example.com');
      expect(smtp.messages[0]).toContain('Your reset code: 654321');
      expect((await latestOutbox(db, { limit: 100 })).length).toBe(before);
    } finally {
      await smtp.close();
    }
  });

  it('enqueue never throws when the SMTP server refuses; send does', async () => {
    const smtp = await startSmtp(true);
    try {
      const mailer = new Mailer({ db, from: 'no-reply@tt.test', now: () => Date.now(), log, smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
      await expect(mailer.send({ to: 'c@example.com', subject: 's', text: 't' })).rejects.toThrow();
      const errorsBefore = errors.length;
      await mailer.enqueue({ to: 'c@example.com', subject: 's', text: 't' });
      await mailer.flush();
      expect(errors.length).toBe(errorsBefore + 1);
      await mailer.close();
    } finally {
      await smtp.close();
    }
  });
});
