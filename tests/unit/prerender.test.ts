/**
 * The boot script every SPA page carries in <head> (scripts/vite-prerender.ts), run against a
 * stand-in document and storage: with a stored session it starts fetching the logged-in chunks
 * (modulepreload, before the entry has even run) and marks the prerendered /auth off; a stored
 * language other than English marks it off; a logged-out English visitor gets neither; the
 * stored theme is applied; a native submit is held back until the app has started. And the
 * server's choice of page (server/http/spa-pages.ts): auth.html for /auth only, and the CSP
 * hash of the inline script.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bootScript } from '../../scripts/vite-prerender';
import { inlineScriptHashes, spaPages } from '../../server/http/spa-pages';

type Listener = (event: { defaultPrevented: boolean; target: unknown; preventDefault(): void }) => void;

function runBoot(stored: Record<string, string>, preloads = ['/assets/feature-actors-x.js', '/assets/TradingPage-y.css'], pathname?: string) {
  const attrs = new Map<string, string>([['data-theme', 'dark']]);
  const links: Array<Record<string, string>> = [];
  const listeners: Listener[] = [];
  const html = {
    style: {} as Record<string, string>,
    setAttribute: (k: string, v: string) => void attrs.set(k, v),
    hasAttribute: (k: string) => attrs.has(k),
  };
  const document = {
    documentElement: html,
    head: { appendChild: (l: Record<string, string>) => void links.push(l) },
    createElement: () => ({}) as Record<string, string>,
    addEventListener: (type: string, fn: Listener) => type === 'submit' && listeners.push(fn),
  };
  const window: Record<string, unknown> = {
    localStorage: { getItem: (k: string) => stored[k] ?? null },
    matchMedia: () => ({ matches: true }),
    ...(pathname ? { location: { pathname } } : {}),
  };
  vm.runInNewContext(bootScript(preloads), { document, window });
  const submit = (target: unknown) => {
    const event = { defaultPrevented: false, target, preventDefault: () => (event.defaultPrevented = true) };
    for (const fn of listeners) fn(event);
    return event.defaultPrevented;
  };
  return { attrs, links, window, submit, html };
}

const session = JSON.stringify({ token: 'tok', refreshToken: 'ref', user: null, isAuthenticated: true });

describe('the boot script', () => {
  it('with a stored session: preloads the logged-in chunks at once and drops the /auth prerender', () => {
    const boot = runBoot({ auth: session });
    expect(boot.links).toEqual([
      { rel: 'modulepreload', crossOrigin: '', href: '/assets/feature-actors-x.js' },
      { rel: 'preload', as: 'style', crossOrigin: '', href: '/assets/TradingPage-y.css' },
    ]);
    expect(boot.attrs.get('data-prerender')).toBe('off');
  });

  it("on the operator console (/admin) a trader's stored session preloads nothing of the trader app", () => {
    expect(runBoot({ auth: session }, undefined, '/admin').links).toEqual([]);
    expect(runBoot({ auth: session }, undefined, '/admin/users/5').links).toEqual([]);
    expect(runBoot({ auth: session }, undefined, '/administrator').links).toHaveLength(2);
    expect(runBoot({ auth: session }, undefined, '/trading').links).toHaveLength(2);
  });

  it('logged out in English: no preload, the prerender stays', () => {
    const boot = runBoot({});
    expect(boot.links).toEqual([]);
    expect(boot.attrs.has('data-prerender')).toBe(false);
    expect(runBoot({ language: '"en"' }).attrs.has('data-prerender')).toBe(false);
  });

  it('a stored language other than English (JSON or the older bare string) drops the prerender', () => {
    expect(runBoot({ language: '"ru"' }).attrs.get('data-prerender')).toBe('off');
    expect(runBoot({ language: 'es' }).attrs.get('data-prerender')).toBe('off');
    expect(runBoot({ language: '"ru"' }).links).toEqual([]);
  });

  it('applies the stored theme (auto follows the system) and ignores garbage', () => {
    expect(runBoot({ theme: '"light"' }).attrs.get('data-theme')).toBe('light');
    expect(runBoot({ theme: '"auto"' }).attrs.get('data-theme')).toBe('dark');
    expect(runBoot({ theme: '{not json' }).attrs.get('data-theme')).toBe('dark');
    expect(runBoot({ auth: '{not json' }).links).toEqual([]);
  });

  it('holds a native submit back until the app has started, keeping the form for it', () => {
    const boot = runBoot({});
    const form = { id: 'login' };
    expect(boot.submit(form)).toBe(true);
    expect(boot.window.__ttPendingSubmit).toBe(form);
    boot.html.setAttribute('data-app', 'started');
    expect(boot.submit(form)).toBe(false);
  });
});

describe('the pages the server sends (spa-pages)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-pages-'));
  const script = 'console.log(1)';
  fs.writeFileSync(path.join(dir, 'index.html'), `<html><head><script>${script}</script></head><body><div id="root"></div></body></html>`);
  fs.writeFileSync(path.join(dir, 'auth.html'), `<html><head><script>${script}</script></head><body><div id="root"><form></form></div></body></html>`);

  it('sends the prerendered auth.html for /auth only, not for another tab or an admin token', () => {
    const pages = spaPages(dir);
    expect(pages.pageFor('/auth')).toBe('auth.html');
    expect(pages.pageFor('/auth?utm_source=x')).toBe('auth.html');
    expect(pages.pageFor('/auth?mode=register')).toBe('index.html');
    expect(pages.pageFor('/auth?token=abc')).toBe('index.html');
    expect(pages.pageFor('/trading')).toBe('index.html');
    expect(pages.pageFor('/')).toBe('index.html');
  });

  it('allows exactly the inline scripts of the pages (CSP hashes)', () => {
    const hash = `'sha256-${crypto.createHash('sha256').update(script).digest('base64')}'`;
    expect(spaPages(dir).scriptHashes).toEqual([hash]);
    expect(inlineScriptHashes('<script type="module" src="/a.js"></script>')).toEqual([]);
  });

  it('without a build: index.html for everything, no hash', () => {
    const pages = spaPages(path.join(dir, 'none'));
    expect(pages.pageFor('/auth')).toBe('index.html');
    expect(pages.scriptHashes).toEqual([]);
  });
});
