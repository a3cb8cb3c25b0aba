/**
 * What a PDF carries besides pages: enough of a PDF parser to refuse files with active content
 * before an operator opens them. A PDF is accepted only when it is complete (%PDF- ... %%EOF),
 * not encrypted (an encrypted file cannot be looked into) and free of every name that starts
 * something on its own or hides a payload:
 *
 *   scripts            /JavaScript /JS
 *   automatic actions  /AA (additional actions), /Launch, /Rendition, /RichMedia
 *                      /RichMediaExecute, and an /OpenAction that does more than show a page
 *                      (a destination, or a plain /GoTo action as TeX writes it, is fine)
 *   other files        /EmbeddedFile /EmbeddedFiles /EF /FileAttachment /GoToR /GoToE
 *   forms that talk    /XFA /SubmitForm /ImportData
 *
 * Nor may a PDF be a web page too (a PDF/HTML polyglot, which a browser or mail client that
 * sniffs would render as HTML): markup before %PDF- (the sniff already demands %PDF- at byte 0)
 * or an HTML document structure (<!DOCTYPE html, <html, <head, <body, <script, <iframe, <svg,
 * <object, ... or an on*= event attribute in a tag) anywhere a browser would read it as text,
 * that is outside the data of compressed (/Filter) streams, is refused as 'html'.
 *
 * /URI link actions are allowed: a link opens only when the reader clicks it (and asks), and
 * statements and bills are full of them. An /OpenAction that is a /URI action is refused.
 *
 * How the file is read:
 * - A lexer walks the whole file outside stream data, as a reader does: name tokens are
 *   decoded (#xx escapes: /J#61vaScript is /JavaScript) and every one counts. Strings and
 *   comments are searched for the long names too (a lenient reader that rebuilds a broken
 *   file may find objects there), but not for the two-letter ones, which turn up in URLs.
 * - Object streams (/Type /ObjStm, or a stream with /N and /First: the objects a cross-reference
 *   stream points into) are inflated with node:zlib (FlateDecode, no predictor) and read the
 *   same way; one that cannot be decoded is refused, since what it hides cannot be known.
 * - Other streams (page content, images, fonts) cannot hold objects. Their raw bytes are
 *   searched for the long names only: in compressed or image bytes /JS, /AA or /EF turn up by
 *   chance, while a 3+ letter name practically never does.
 * - Every /OpenAction must be a dictionary key the parser read, with a harmless value
 *   (references followed, in the file and in object streams).
 * - Inflating is capped (64 MB in all) against decompression bombs; nesting deeper than 64 is
 *   refused.
 */
import zlib from 'node:zlib';
import { isCompletePdf } from './file-sniff';

export type PdfProblem = 'incomplete' | 'encrypted' | 'active' | 'unreadable' | 'html';
export type PdfVerdict = { ok: true } | { ok: false; problem: PdfProblem; detail: string };

/** Inflated bytes of all object streams of one file together. */
export const PDF_INFLATE_BUDGET = 64 * 1024 * 1024;
const MAX_DEPTH = 64;

/** Names that make a PDF active. /OpenAction is judged by its value, see above. */
export const PDF_ACTIVE_NAMES: ReadonlySet<string> = new Set([
  'JavaScript',
  'JS',
  'AA',
  'Launch',
  'Rendition',
  'RichMedia',
  'RichMediaExecute',
  'EmbeddedFile',
  'EmbeddedFiles',
  'EF',
  'FileAttachment',
  'GoToR',
  'GoToE',
  'XFA',
  'SubmitForm',
  'ImportData',
]);
/** In raw stream bytes: names long enough not to appear by chance. */
const LONG_NAMES: ReadonlySet<string> = new Set([...PDF_ACTIVE_NAMES, 'OpenAction', 'Encrypt'].filter((n) => n.length >= 3));

class Refusal extends Error {
  constructor(
    readonly problem: PdfProblem,
    readonly detail: string,
  ) {
    super(detail);
  }
}

// ---- HTML markup ------------------------------------------------------------------------------

/**
 * The start of an HTML document structure: a doctype, or a tag that makes a page (or runs
 * something) followed by white space, '>' or '/'; or an event-handler attribute inside a tag.
 */
const HTML_MARKUP =
  /<!doctype\s+html|<(?:html|head|body|script|iframe|frame|frameset|object|embed|applet|svg|math|meta|base|link|style|form|img|video|audio|template|noscript)[\s>/]|<[a-z][^<>]{0,200}\son[a-z]+\s*=/i;

/** Where the first HTML markup in `text` (latin1) starts, or -1. */
export function htmlMarkupAt(text: string): number {
  const m = HTML_MARKUP.exec(text);
  return m ? m.index : -1;
}

/** Refuse markup before %PDF- and HTML structure outside compressed stream data. */
function checkHtml(buf: Buffer, streams: StreamInfo[]): void {
  const pdfAt = buf.indexOf('%PDF-', 0, 'latin1');
  if (pdfAt > 0 && /<[!a-z?/]/i.test(buf.toString('latin1', 0, pdfAt))) throw new Refusal('html', 'markup before %PDF-');
  const skipped = streams.filter((st) => st.dict.has('Filter')).sort((a, b) => a.start - b.start);
  let from = 0;
  const search = (to: number) => {
    if (to > from && htmlMarkupAt(buf.toString('latin1', from, to)) >= 0) throw new Refusal('html', 'HTML markup');
  };
  for (const st of skipped) {
    search(st.start);
    from = Math.max(from, st.end);
  }
  search(buf.length);
}

// ---- names ------------------------------------------------------------------------------------

/** #xx escapes of a name (PDF 1.2+); a # without two hex digits stays as it is. */
export function decodePdfName(raw: string): string {
  if (!raw.includes('#')) return raw;
  return raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// A name: "/" and the regular characters after it (not white space, not a delimiter).
const NAME_TOKEN = /\/([^\x00\x09\x0a\x0c\x0d\x20()<>[\]{}/%]*)/g;

/** Every name in `text` (latin1), decoded. */
function namesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NAME_TOKEN)) out.push(decodePdfName(m[1]));
  return out;
}

// ---- lexer and object parser ----------------------------------------------------------------

type Token =
  | { t: 'name'; v: string; at: number }
  | { t: 'num'; v: number; int: boolean }
  | { t: 'kw'; v: string }
  | { t: 'str' }
  | { t: '<<' }
  | { t: '>>' }
  | { t: '[' }
  | { t: ']' }
  | { t: 'eof' };

interface Ref {
  ref: number;
}
type PdfValue = number | string | null | Ref | PdfValue[] | Map<string, PdfValue> | { name: string } | { other: true };

// Byte classes: 1 white space, 2 delimiter, 0 regular (part of a name, number or keyword).
const CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[c] = 1;
for (const c of '()<>[]{}/%') CLASS[c.charCodeAt(0)] = 2;
const isWhite = (c: number) => CLASS[c] === 1;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const INTEGER = /^[+-]?\d+$/;

class Lexer {
  pos: number;
  /**
   * Every name token met, with where it starts, once: a look-ahead that is taken back re-reads
   * tokens already recorded, and the lexer only ever moves back to before those, so a token is
   * new exactly when it starts after the last one recorded.
   */
  readonly names: { at: number; name: string }[] = [];
  /** Strings and comments met, [start, end): no names for a reader, but searched for the long ones. */
  readonly soft: [number, number][] = [];
  private lastName = -1;
  private lastSoft = -1;

  private addSoft(from: number, to: number): void {
    if (from <= this.lastSoft) return;
    this.lastSoft = from;
    this.soft.push([from, to]);
  }

  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  next(): Token {
    const b = this.buf;
    for (;;) {
      while (this.pos < this.end && isWhite(b[this.pos])) this.pos++;
      if (this.pos >= this.end) return { t: 'eof' };
      if (b[this.pos] !== 0x25) break; // %: a comment to the end of the line
      const from = this.pos;
      while (this.pos < this.end && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      this.addSoft(from, this.pos);
    }
    const start = this.pos;
    const c = b[this.pos++];
    switch (c) {
      case 0x2f: {
        // /Name
        while (this.pos < this.end && CLASS[b[this.pos]] === 0) this.pos++;
        const name = decodePdfName(b.toString('latin1', start + 1, this.pos));
        if (start > this.lastName) {
          this.lastName = start;
          this.names.push({ at: start, name });
        }
        return { t: 'name', v: name, at: start };
      }
      case 0x28: {
        // (literal string): balanced parentheses, backslash escapes
        let depth = 1;
        while (this.pos < this.end && depth > 0) {
          const d = b[this.pos++];
          if (d === 0x5c) this.pos++;
          else if (d === 0x28) depth++;
          else if (d === 0x29) depth--;
        }
        this.pos = Math.min(this.pos, this.end);
        this.addSoft(start, this.pos);
        return { t: 'str' };
      }
      case 0x3c:
        if (b[this.pos] === 0x3c) {
          this.pos++;
          return { t: '<<' };
        }
        // <hex string>
        while (this.pos < this.end && b[this.pos] !== 0x3e) this.pos++;
        this.pos = Math.min(this.pos + 1, this.end);
        this.addSoft(start, this.pos);
        return { t: 'str' };
      case 0x3e:
        if (b[this.pos] === 0x3e) {
          this.pos++;
          return { t: '>>' };
        }
        return { t: 'kw', v: '>' };
      case 0x5b:
        return { t: '[' };
      case 0x5d:
        return { t: ']' };
      case 0x7b:
      case 0x7d:
      case 0x29:
        return { t: 'kw', v: String.fromCharCode(c) };
      default: {
        while (this.pos < this.end && CLASS[b[this.pos]] === 0) this.pos++;
        // A run of digits (the common case: object numbers, references) without a string.
        let value = 0;
        let i = start;
        while (i < this.pos && b[i] >= 0x30 && b[i] <= 0x39 && i - start < 15) value = value * 10 + (b[i++] - 0x30);
        if (i === this.pos && i > start) return { t: 'num', v: value, int: true };
        const word = b.toString('latin1', start, this.pos);
        if (NUMBER.test(word)) return { t: 'num', v: Number(word), int: INTEGER.test(word) };
        return { t: 'kw', v: word };
      }
    }
  }

  /** The next token without consuming it. */
  peek(): Token {
    const at = this.pos;
    const tok = this.next();
    this.pos = at;
    return tok;
  }
}

/** What the parse noticed: the /OpenAction values, each with where its key sits. */
interface ParseSink {
  openActions: { where: string; value: PdfValue }[];
  source: string;
}

function parseValue(lex: Lexer, tok: Token, sink: ParseSink, depth: number): PdfValue {
  if (depth > MAX_DEPTH) throw new Refusal('unreadable', 'nested too deeply');
  switch (tok.t) {
    case 'num': {
      if (tok.int && tok.v >= 0) {
        // "n g R" is a reference.
        const at = lex.pos;
        const g = lex.next();
        if (g.t === 'num' && g.int) {
          const r = lex.next();
          if (r.t === 'kw' && r.v === 'R') return { ref: tok.v };
        }
        lex.pos = at;
      }
      return tok.v;
    }
    case 'name':
      return { name: tok.v };
    case 'str':
      return '';
    case '[': {
      const out: PdfValue[] = [];
      for (;;) {
        const next = lex.next();
        if (next.t === ']' || next.t === 'eof') return out;
        out.push(parseValue(lex, next, sink, depth + 1));
      }
    }
    case '<<': {
      const out = new Map<string, PdfValue>();
      for (;;) {
        const key = lex.next();
        if (key.t === '>>' || key.t === 'eof') return out;
        if (key.t !== 'name') continue; // junk where a key should be: skip it, as readers do
        const valueTok = lex.next();
        if (valueTok.t === '>>' || valueTok.t === 'eof') return out;
        const value = parseValue(lex, valueTok, sink, depth + 1);
        out.set(key.v, value);
        if (key.v === 'OpenAction') sink.openActions.push({ where: `${sink.source}:${key.at}`, value });
      }
    }
    case 'kw':
      return tok.v === 'null' ? null : { other: true };
    default:
      return { other: true };
  }
}

// ---- the file -------------------------------------------------------------------------------

interface StreamInfo {
  dict: Map<string, PdfValue>;
  start: number;
  end: number;
}

const isRef = (v: PdfValue | undefined): v is Ref => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && 'ref' in v;
const nameOf = (v: PdfValue | undefined): string | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && 'name' in v ? v.name : null;

/** Where the data of a stream whose keyword ends at `afterKeyword` starts, and where it ends. */
function streamBounds(buf: Buffer, dict: Map<string, PdfValue>, afterKeyword: number): { start: number; end: number; next: number } {
  let start = afterKeyword;
  if (buf[start] === 0x0d) start++;
  if (buf[start] === 0x0a) start++;
  const length = dict.get('Length');
  if (typeof length === 'number' && Number.isInteger(length) && length >= 0 && start + length <= buf.length) {
    let after = start + length;
    while (after < buf.length && isWhite(buf[after])) after++;
    if (buf.toString('latin1', after, after + 9) === 'endstream') return { start, end: start + length, next: after + 9 };
  }
  // No usable /Length (indirect, or wrong): the data ends at the next "endstream" (or, without
  // one, "endobj"), as readers recover.
  const endstream = buf.indexOf('endstream', start, 'latin1');
  const found = endstream >= 0 ? endstream : buf.indexOf('endobj', start, 'latin1');
  if (found < 0) return { start, end: buf.length, next: buf.length };
  let end = found;
  if (end > start && buf[end - 1] === 0x0a) end--;
  if (end > start && buf[end - 1] === 0x0d) end--;
  return { start, end, next: endstream >= 0 ? found + 9 : found };
}

/** The object stream's filters, checked: only none or FlateDecode without a predictor can be looked into. */
function inflateObjectStream(buf: Buffer, s: StreamInfo, budget: { left: number }): Buffer {
  const filter = s.dict.get('Filter');
  const filters = filter === undefined || filter === null ? [] : Array.isArray(filter) ? filter : [filter];
  const names = filters.map(nameOf);
  const raw = buf.subarray(s.start, s.end);
  if (names.length === 0) return raw;
  if (names.length !== 1 || (names[0] !== 'FlateDecode' && names[0] !== 'Fl')) {
    throw new Refusal('unreadable', `object stream with filter ${names.map((n) => n ?? '?').join(',')}`);
  }
  const parms = s.dict.get('DecodeParms') ?? s.dict.get('DP');
  const predictor = parms instanceof Map ? parms.get('Predictor') : Array.isArray(parms) && parms[0] instanceof Map ? parms[0].get('Predictor') : undefined;
  if (predictor !== undefined && predictor !== 1) throw new Refusal('unreadable', 'object stream with a predictor');
  if (budget.left <= 0) throw new Refusal('unreadable', 'too much to inflate');
  try {
    // A stream cut short still gives what it has, as readers do.
    const out = zlib.inflateSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: budget.left });
    budget.left -= out.length;
    return out;
  } catch (err) {
    throw new Refusal('unreadable', `object stream does not inflate (${(err as Error).message})`);
  }
}

/** Search what a lexer met: names for every active one, strings and comments for the long ones. */
function checkNames(lex: Lexer, where: string): void {
  const names = lex.names.map((n) => n.name);
  if (names.includes('Encrypt')) throw new Refusal('encrypted', `/Encrypt${where}`);
  const active = names.find((n) => PDF_ACTIVE_NAMES.has(n));
  if (active) throw new Refusal('active', `/${active}${where}`);
  for (const [from, to] of lex.soft) checkLongNames(lex.buf, from, to, ` in a string or comment${where}`);
}

/** The long names in bytes that are not tokens (stream data, strings, comments). */
function checkLongNames(buf: Buffer, from: number, to: number, where: string): void {
  const slash = buf.indexOf(0x2f, from);
  if (slash < 0 || slash >= to) return;
  const hit = namesIn(buf.toString('latin1', from, to)).find((n) => LONG_NAMES.has(n));
  if (hit) throw new Refusal(hit === 'Encrypt' ? 'encrypted' : 'active', `/${hit}${where}`);
}

/** Whether an /OpenAction value (references followed) only shows a page. */
function isHarmlessOpenAction(value: PdfValue, objects: Map<number, PdfValue[]>): boolean {
  let targets: PdfValue[] = [value];
  for (let hops = 0; hops < 8 && targets.some(isRef); hops++) {
    targets = targets.flatMap((t) => (isRef(t) ? (objects.get(t.ref) ?? [{ other: true }]) : [t]));
  }
  return targets.every((t) => {
    // An action: only a plain GoTo (what TeX writes), which is a destination in other words.
    if (t instanceof Map) return nameOf(t.get('S')) === 'GoTo' && !t.has('Next');
    // A destination: an array, a name or a string; or null.
    return !isRef(t) && !(typeof t === 'object' && t !== null && 'other' in t);
  });
}

function inspect(buf: Buffer): void {
  if (!isCompletePdf(buf)) throw new Refusal('incomplete', 'no %PDF- at the start or no %%EOF at the end');

  const objects = new Map<number, PdfValue[]>();
  const define = (num: number, value: PdfValue) => {
    const known = objects.get(num);
    if (known) known.push(value);
    else objects.set(num, [value]);
  };
  const sink: ParseSink = { openActions: [], source: 'file' };
  const streams: StreamInfo[] = [];

  // 1. The file's objects, skipping over stream data.
  const lex = new Lexer(buf);
  for (;;) {
    const tok = lex.next();
    if (tok.t === 'eof') break;
    if (tok.t === 'num' && tok.int) {
      const at = lex.pos;
      const gen = lex.next();
      const obj = gen.t === 'num' && gen.int ? lex.next() : null;
      if (!(obj && obj.t === 'kw' && obj.v === 'obj')) {
        lex.pos = at;
        continue;
      }
      const value = parseValue(lex, lex.next(), sink, 0);
      define(tok.v, value);
      const after = lex.peek();
      if (after.t === 'kw' && after.v === 'stream') {
        lex.next();
        const dict = value instanceof Map ? value : new Map<string, PdfValue>();
        const bounds = streamBounds(buf, dict, lex.pos);
        streams.push({ dict, start: bounds.start, end: bounds.end });
        lex.pos = bounds.next;
      }
      continue;
    }
    if (tok.t === 'kw' && tok.v === 'trailer') {
      parseValue(lex, lex.next(), sink, 0);
      continue;
    }
    if (tok.t === 'kw' && tok.v === 'stream') {
      // Stream data without an object around it: skip it like the others, and search it.
      const bounds = streamBounds(buf, new Map(), lex.pos);
      streams.push({ dict: new Map(), start: bounds.start, end: bounds.end });
      lex.pos = bounds.next;
    }
  }

  // 2. A web page in disguise.
  checkHtml(buf, streams);

  // 2b. Names: every token outside stream data; the long ones in strings, comments and stream data.
  checkNames(lex, '');
  for (const s of streams) checkLongNames(buf, s.start, s.end, ' in stream data');
  const openActionsSeen = lex.names.filter((n) => n.name === 'OpenAction').map((n) => `file:${n.at}`);

  // 3. Object streams: inflate, search them the same way, and parse their objects.
  const budget = { left: PDF_INFLATE_BUDGET };
  const resolveInt = (v: PdfValue | undefined): number | null => {
    const direct = isRef(v) ? objects.get(v.ref)?.[0] : v;
    return typeof direct === 'number' && Number.isInteger(direct) && direct >= 0 ? direct : null;
  };
  streams.forEach((s, index) => {
    if (!(nameOf(s.dict.get('Type')) === 'ObjStm' || s.dict.has('N') || s.dict.has('First'))) return;
    const data = inflateObjectStream(buf, s, budget);
    const source = `objstm${index}`;
    const whole = new Lexer(data);
    while (whole.next().t !== 'eof');
    checkNames(whole, ' in an object stream');
    for (const n of whole.names) if (n.name === 'OpenAction') openActionsSeen.push(`${source}:${n.at}`);

    const n = resolveInt(s.dict.get('N'));
    const first = resolveInt(s.dict.get('First'));
    if (n === null || first === null || first > data.length) return;
    const header = new Lexer(data, 0, first);
    const inside: ParseSink = { openActions: sink.openActions, source };
    for (let i = 0; i < n; i++) {
      const num = header.next();
      const offset = header.next();
      if (num.t !== 'num' || offset.t !== 'num' || !num.int || !offset.int || offset.v < 0 || first + offset.v >= data.length) break;
      const objLex = new Lexer(data, first + offset.v);
      define(num.v, parseValue(objLex, objLex.next(), inside, 0));
    }
  });

  // 4. /OpenAction: each one met must have been parsed as a dictionary key, and its value must
  // only show a page. One in a broken object, or an action that does anything else, is refused.
  const judged = new Set<string>();
  for (const { where, value } of sink.openActions) {
    if (!isHarmlessOpenAction(value, objects)) throw new Refusal('active', '/OpenAction with an action');
    judged.add(where);
  }
  if (openActionsSeen.some((where) => !judged.has(where))) throw new Refusal('active', '/OpenAction outside an object');
}

/** Judge a PDF: complete, not encrypted, no active content. */
export function inspectPdf(buf: Buffer): PdfVerdict {
  try {
    inspect(buf);
    return { ok: true };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, problem: err.problem, detail: err.detail };
    // Anything the parser did not expect: the file is not one we can vouch for.
    return { ok: false, problem: 'unreadable', detail: err instanceof Error ? err.message : 'unexpected' };
  }
}
