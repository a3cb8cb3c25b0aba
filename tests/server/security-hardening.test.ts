/**
 * Issue 12 (hardening), against a real server on an ephemeral port:
 * - access tokens: a token signed with the server's key is refused without exp, iat, iss, aud,
 *   with a foreign issuer or audience, an iat in the future, an age or a lifetime over the TTL;
 * - the per-IP limit on POST /api/platform/auth/refresh;
 * - headers: CSP connect-src without bare ws:/wss: (the PUBLIC_URL's origin when set),
 *   Cache-Control: no-store on authenticated JSON, HSTS only in production;
 * - an over-long request line or header block answers 414 / 431 with the envelope, over a raw
 *   socket, also to a client that is still sending;
 * - stored files: a PDF that is also an HTML page is refused (translated text), a plain one kept.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { useTestServer } from '../support/server-fixture';
import { startTestServer } from '../support/server';
import { register, type Registered } from '../support/auth';
import { IP_LIMITS } from '../../server/routes/auth';
import { PROFILE_LIMITS } from '../../server/routes/profile';
import { MAX_URL_LENGTH } from '../../server/http/hardening';
import { inspectPdf } from '../../server/domain/profile/pdf-inspect';
import { DOCUMENTS_PER_USER_MAX, ProfileText } from '../../contract/profile';
import { ErrorText } from '../../contract/envelope';

const SECRET = 'h12-test-secret-0123456789abcdef0123456789';
const TTL = 900;

const server = useTestServer({ JWT_SECRET: SECRET, ACCESS_TOKEN_TTL_SECONDS: String(TTL) }, {}, { auditLedger: false });

// ---- tokens -----------------------------------------------------------------------------------

interface Forge {
  exp?: number | null;
  iat?: number | null;
  iss?: string | null;
  aud?: string | null;
}

/** A token for the same user and session as `u`, signed with the server's key, claims as asked. */
async function forge(u: Registered, f: Forge): Promise<string> {
  const real = decodeJwt(u.token);
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ st: real.st, fam: real.fam }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(String(real.sub));
  const iss = f.iss === undefined ? 'tradeterminal' : f.iss;
  const aud = f.aud === undefined ? 'tradeterminal-api' : f.aud;
  const iat = f.iat === undefined ? now : f.iat;
  const exp = f.exp === undefined ? now + TTL : f.exp;
  if (iss !== null) jwt.setIssuer(iss);
  if (aud !== null) jwt.setAudience(aud);
  if (iat !== null) jwt.setIssuedAt(iat);
  if (exp !== null) jwt.setExpirationTime(exp);
  return jwt.sign(new TextEncoder().encode(SECRET));
}

describe('access tokens', () => {
  it('accepts a well-formed token signed with the key (the forging itself works)', async () => {
    const u = await register(server);
    const r = await server.api('GET', '/api/platform/auth/me', undefined, await forge(u, {}));
    expect(r.status).toBe(200);
    expect(r.body.data.user_id).toBe(u.userId);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const refused: [string, () => Forge][] = [
    ['no exp', () => ({ exp: null })],
    ['no iat', () => ({ iat: null })],
    ['no iss', () => ({ iss: null })],
    ['no aud', () => ({ aud: null })],
    ['a foreign issuer', () => ({ iss: 'someone-else' })],
    ['a foreign audience', () => ({ aud: 'other-api' })],
    ['a lifetime of 30 days', () => ({ exp: now() + 30 * 24 * 3600 })],
    ['an iat an hour ahead', () => ({ iat: now() + 3600, exp: now() + 3600 + TTL })],
    ['an age over the TTL (iat two TTLs ago, exp still ahead)', () => ({ iat: now() - 2 * TTL, exp: now() + 60 })],
  ];
  for (const [what, claims] of refused) {
    it(`refuses a correctly signed token with ${what}: 401 with the envelope`, async () => {
      const u = await register(server);
      const r = await server.api('GET', '/api/platform/auth/me', undefined, await forge(u, claims()));
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ success: false, data: null, error: ErrorText.unauthorized, error_message: ErrorText.unauthorized });
    });
  }
});

describe('POST /api/platform/auth/refresh per-IP limit', () => {
  it(`answers 429 with the envelope after ${IP_LIMITS.refresh.max} a minute from one IP`, async () => {
    const limited = await startTestServer({ RATE_LIMIT: 'true' });
    try {
      for (let i = 0; i < IP_LIMITS.refresh.max; i++) {
        const r = await limited.api('POST', '/api/platform/auth/refresh', { refresh_token: `guess-${i}-${'x'.repeat(40)}` });
        expect(r.status).toBe(401);
      }
      const r = await limited.api('POST', '/api/platform/auth/refresh', { refresh_token: 'guess-last-' + 'x'.repeat(40) });
      expect(r.status).toBe(429);
      expect(r.body).toEqual({ success: false, data: null, error: ErrorText.tooManyRequests, error_message: ErrorText.tooManyRequests });
    } finally {
      await limited.close();
    }
  });
});

describe('per-IP limits that had no test of their own', () => {
  it(`register: ${IP_LIMITS.register.max} an hour; verify-email: ${IP_LIMITS.verify.max} per 15 minutes`, async () => {
    const limited = await startTestServer({ RATE_LIMIT: 'true' });
    try {
      for (let i = 0; i < IP_LIMITS.register.max; i++) await register(limited);
      const r = await limited.api('POST', '/api/platform/auth/register', { username: 'one-too-many' });
      expect(r.status).toBe(429);
      expect(r.body).toEqual({ success: false, data: null, error: ErrorText.tooManyRequests, error_message: ErrorText.tooManyRequests });
      for (let i = 0; i < IP_LIMITS.verify.max; i++) {
        expect((await limited.api('POST', '/api/platform/auth/verify-email', { token: `${i}`.padEnd(43, 'z') })).status).toBe(400);
      }
      expect((await limited.api('POST', '/api/platform/auth/verify-email', { token: 'y'.repeat(43) })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it(`profile: uploads ${PROFILE_LIMITS.uploads.max}, 2FA codes ${PROFILE_LIMITS.codes.max}, Telegram links ${PROFILE_LIMITS.telegramLink.max} per 15 minutes per IP`, async () => {
    const limited = await startTestServer({ RATE_LIMIT: 'true' });
    try {
      const u = await register(limited);
      const hit = (method: string, url: string, body?: unknown) => limited.api(method, url, body, u.token);
      const cases: [number, () => ReturnType<typeof hit>][] = [
        [PROFILE_LIMITS.uploads.max, () => hit('POST', '/api/v2/documents/upload', { type: 'other' })],
        [PROFILE_LIMITS.codes.max, () => hit('POST', '/api/v2/user/2fa/enable', {})],
        [PROFILE_LIMITS.telegramLink.max, () => hit('POST', '/api/v2/telegram/link', {})],
      ];
      for (const [max, call] of cases) {
        for (let i = 0; i < max; i++) expect((await call()).status).not.toBe(429);
        const over = await call();
        expect(over.status).toBe(429);
        expect(over.body.error_message).toBe(ErrorText.tooManyRequests);
      }
    } finally {
      await limited.close();
    }
  });
});

// ---- headers ----------------------------------------------------------------------------------

function directive(csp: string | null, name: string): string[] {
  const found = (csp ?? '').split(';').map((d) => d.trim().split(/\s+/)).find((parts) => parts[0] === name);
  return found ? found.slice(1) : [];
}

describe('headers', () => {
  it("CSP connect-src is 'self' only: no ws:/wss: to any host", async () => {
    const res = await server.raw('GET', '/api/health');
    expect(directive(res.headers.get('content-security-policy'), 'connect-src')).toEqual(["'self'"]);
  });

  it('CSP connect-src adds the configured PUBLIC_URL and its wss: form, nothing wider', async () => {
    const s = await startTestServer({ PUBLIC_URL: 'https://trade.example.com' });
    try {
      const res = await s.raw('GET', '/api/health');
      expect(directive(res.headers.get('content-security-policy'), 'connect-src')).toEqual(["'self'", 'https://trade.example.com', 'wss://trade.example.com']);
    } finally {
      await s.close();
    }
  });

  it('authenticated JSON answers carry Cache-Control: no-store (me, profile, orders, transactions, documents) and a 401 too', async () => {
    const u = await register(server);
    for (const url of ['/api/platform/auth/me', '/api/v2/user/profile', '/api/platform/orders', '/api/v2/transactions', '/api/v2/user/documents']) {
      const res = await server.raw('GET', url, { headers: { authorization: `Bearer ${u.token}` } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toMatch(/application\/json/);
      expect(res.headers.get('cache-control'), url).toBe('no-store');
    }
    const refused = await server.raw('GET', '/api/platform/auth/me');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it("keeps the baseline: frame-ancestors 'none', no plugins, scripts only from us, nosniff", async () => {
    const res = await server.raw('GET', '/api/health');
    const csp = res.headers.get('content-security-policy');
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a JSON body over 1 MB answers 413 with the envelope', async () => {
    const r = await server.api('POST', '/api/platform/auth/login', { username: 'x', password: 'y'.repeat(1024 * 1024) });
    expect(r.status).toBe(413);
    expect(r.body).toEqual(envelope(ErrorText.payloadTooLarge));
  });

  it('HSTS only in production', async () => {
    expect((await server.raw('GET', '/api/health')).headers.get('strict-transport-security')).toBeNull();
    const prod = await startTestServer({ NODE_ENV: 'production', JWT_SECRET: SECRET, PUBLIC_URL: 'https://trade.example.com' });
    try {
      expect((await prod.raw('GET', '/api/health')).headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    } finally {
      await prod.close();
    }
  });
});

// ---- over-long requests -------------------------------------------------------------------------

interface RawAnswer {
  status: number;
  headers: string;
  body: unknown;
  error: string | null;
}

/** Send `head` on a raw socket, then `more` chunks of 16 KiB every 5 ms; read the whole answer. */
function rawRequest(head: string, more = 0): Promise<RawAnswer> {
  const port = Number(new URL(server.baseUrl).port);
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | null = null;
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers, ...rest] = text.split('\r\n\r\n');
      let body: unknown = rest.join('\r\n\r\n');
      try {
        body = JSON.parse(String(body));
      } catch {
        // keep the text
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body, error });
    });
    socket.write(head);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent++ >= more || socket.destroyed || !socket.writable) {
        clearInterval(timer);
        if (!socket.destroyed && socket.writable) socket.end('\r\n\r\n');
        return;
      }
      socket.write('a'.repeat(16 * 1024));
    }, 5);
  });
}

const envelope = (message: string) => ({ success: false, data: null, error: message, error_message: message });

describe('over-long requests', () => {
  it(`a request line over ${MAX_URL_LENGTH} characters answers 414 with the envelope`, async () => {
    const res = await server.api('GET', `/api/health?pad=${'a'.repeat(MAX_URL_LENGTH)}`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual(envelope('Request URI too long'));
  });

  it("a request line over Node's header limit answers 414 with the envelope on a raw socket", async () => {
    const answer = await rawRequest(`GET /api/health?pad=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer.status).toBe(414);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(answer.body).toEqual(envelope('Request URI too long'));
  });

  it('a header block over the limit answers 431 with the envelope on a raw socket', async () => {
    const answer = await rawRequest(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'b'.repeat(40_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual(envelope('Request headers too large'));
  });

  it('a client still sending its over-long request reads the whole answer, not a reset', async () => {
    const answer = await rawRequest(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: `, 60);
    expect(answer.error).toBeNull();
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual(envelope('Request headers too large'));
  });

  it('a path parameter over the router limit and a broken %-escape answer in the envelope', async () => {
    const long = await server.api('GET', `/api/platform/orders/${'1'.repeat(400)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual(envelope('Request URI too long'));
    const bad = await server.api('GET', '/api/platform/orders/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(envelope('Bad request'));
  });
});

describe('socket messages', () => {
  it('a socket.io message over 64 KiB closes that socket; others keep working', async () => {
    const big = await server.socket();
    const other = await server.socket();
    const closed = new Promise<string>((resolve) => big.once('disconnect', (reason) => resolve(reason)));
    big.emit('select_pair', { pair: 'x'.repeat(70 * 1024) });
    expect(await closed).toBe('transport close');
    const pong = new Promise((resolve) => other.once('pong', resolve));
    other.emit('ping');
    await expect(pong).resolves.toBeTruthy();
  });
});

// ---- stored files -------------------------------------------------------------------------------

/** A complete, readable one-page PDF; `extra` goes right after the header line, `title` into /Info. */
function pdf({ extra = '', title = 'Statement', content = 'BT /F1 12 Tf 72 720 Td (Statement) Tj ET' } = {}): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title (${title}) >>`,
  ];
  let out = `%PDF-1.4\n${extra}`;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

async function upload(u: Registered, data: Buffer) {
  const fd = new FormData();
  fd.append('type', 'bank_statement');
  fd.append('files', new Blob([new Uint8Array(data)], { type: 'application/pdf' }), 'statement.pdf');
  const res = await server.raw('POST', '/api/v2/documents/upload', { body: fd, headers: { authorization: `Bearer ${u.token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('stored files: PDF that is also a web page', () => {
  const polyglots: [string, () => Buffer][] = [
    ['an HTML page in a comment after the header', () => pdf({ extra: '%<html><body><script>alert(document.cookie)</script></body></html>\n' })],
    ['a doctype in the document title string', () => pdf({ title: '<!DOCTYPE html><p>x' })],
    ['an <iframe> in an uncompressed content stream', () => pdf({ content: 'BT ET\n<iframe src="https://evil.example/">' })],
    ['an event handler in a tag in a comment', () => pdf({ extra: '%<p id=x onmouseover=alert(1)>hi\n' })],
    ['an <svg> with a script after %%EOF', () => Buffer.concat([pdf(), Buffer.from('<svg/onload=alert(1)>\n%%EOF\n', 'latin1')])],
  ];
  for (const [what, make] of polyglots) {
    it(`refuses ${what} with 400 and the translated text, storing nothing`, async () => {
      const u = await register(server);
      const r = await upload(u, make());
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toEqual(envelope(ProfileText.pdfHtml));
      const docs = await server.api('GET', '/api/v2/user/documents', undefined, u.token);
      expect(docs.body.data.documents).toEqual([]);
    });
  }

  it('refuses HTML markup before %PDF (as an unsupported file: no PDF starts there)', async () => {
    const u = await register(server);
    const r = await upload(u, Buffer.concat([Buffer.from('<html><script>alert(1)</script>\n', 'latin1'), pdf()]));
    expect(r.status).toBe(400);
    expect(r.body).toEqual(envelope(ProfileText.unsupportedFileType));
  });

  it(`keeps at most ${DOCUMENTS_PER_USER_MAX} documents per user`, async () => {
    const open = await startTestServer({ RATE_LIMIT: 'false' });
    try {
      const u = await register(open);
      const send = async () => {
        const fd = new FormData();
        fd.append('type', 'other');
        fd.append('files', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'statement.pdf');
        const res = await open.raw('POST', '/api/v2/documents/upload', { body: fd, headers: { authorization: `Bearer ${u.token}` } });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      for (let i = 0; i < DOCUMENTS_PER_USER_MAX; i++) expect((await send()).status).toBe(201);
      const over = await send();
      expect(over.status).toBe(400);
      expect(over.body).toEqual(envelope(ProfileText.tooManyDocuments));
    } finally {
      await open.close();
    }
  });

  it('keeps accepting a plain PDF, also one whose text mentions a "<" sign', async () => {
    const u = await register(server);
    const r = await upload(u, pdf({ title: 'Rates < 5 % and <b> not a tag', content: 'BT /F1 12 Tf 72 720 Td (a < b, html is text) Tj ET' }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(inspectPdf(pdf())).toEqual({ ok: true });
  });
});
