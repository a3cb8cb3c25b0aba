/**
 * The built SPA's HTML pages (issue 11): `index.html` for every route, and `auth.html`, the
 * same page with /auth rendered into it at build time (scripts/vite-prerender.ts), sent for
 * GET /auth so the form paints before any script runs. Not for /auth?mode=register (another
 * tab) or an address carrying the operator's one-time admin token (another session); those
 * get index.html. Both pages carry an inline boot script; its hash goes into the CSP
 * (script-src stays 'self' plus exactly those scripts), read from the files themselves, so the
 * two never disagree.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface SpaPages {
  /** 'sha256-...' sources for the inline scripts of the served pages (for CSP script-src). */
  scriptHashes: string[];
  /** The HTML file (in distDir) to send for a page request. */
  pageFor(url: string): string;
}

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((m) => `'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}

export function spaPages(distDir: string): SpaPages {
  const read = (file: string) => {
    const full = path.join(distDir, file);
    return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : null;
  };
  const index = read('index.html');
  const auth = read('auth.html');
  const scriptHashes = [...new Set([index, auth].flatMap((html) => (html ? inlineScriptHashes(html) : [])))];
  return {
    scriptHashes,
    pageFor(url) {
      if (!auth) return 'index.html';
      const [pathname, query = ''] = url.split('?');
      if (pathname !== '/auth') return 'index.html';
      const params = new URLSearchParams(query);
      return params.has('mode') || params.has('token') ? 'index.html' : 'auth.html';
    },
  };
}
