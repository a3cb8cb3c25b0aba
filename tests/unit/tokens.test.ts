/**
 * Guards the design tokens: both palettes define the same colour tokens, every text/background
 * pair the components use passes WCAG AA (4.5:1 for text, 3:1 for borders/focus), and no
 * colour literal leaks into the SPA outside src/styles/tokens.css.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const css = readFileSync(path.join(root, 'src/styles/tokens.css'), 'utf8');

function block(selectorStart: string): Record<string, string> {
  const start = css.indexOf(selectorStart);
  if (start < 0) throw new Error(`no block ${selectorStart}`);
  const open = css.indexOf('{', start);
  const close = css.indexOf('}', open);
  const body = css.slice(open + 1, close);
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/--([a-z0-9-]+):\s*([^;]+);/g)) out[m[1]] = m[2].trim();
  return out;
}

const dark = block(":root,\n[data-theme='dark']");
const light = block("[data-theme='light']");

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a 6-digit hex colour: ${hex}`);
  const n = parseInt(m[1], 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

function contrast(a: string, b: string): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

const surfaces = ['bg', 'surface', 'surface-2', 'surface-3'];
const textOnSurfaces = ['text', 'text-muted', 'gain', 'loss', 'neutral', 'link', 'success', 'error', 'warning', 'info'];
const filled: Array<[string, string]> = [
  ['on-primary', 'primary'],
  ['on-primary', 'primary-hover'],
  ['on-up', 'up'],
  ['on-up', 'up-hover'],
  ['on-down', 'down'],
  ['on-down', 'down-hover'],
  ['on-danger', 'danger'],
  ['on-danger', 'danger-hover'],
  ['success', 'success-soft'],
  ['error', 'error-soft'],
  ['warning', 'warning-soft'],
  ['info', 'info-soft'],
  ['gain', 'gain-soft'],
  ['loss', 'loss-soft'],
  ['text', 'gain-soft'],
  ['text', 'loss-soft'],
];

describe.each([
  ['dark', dark],
  ['light', light],
])('%s palette', (_name, palette) => {
  const color = (token: string) => {
    const value = palette[`color-${token}`];
    if (!value) throw new Error(`missing --color-${token}`);
    return value;
  };

  it.each(surfaces.flatMap((s) => textOnSurfaces.map((t) => [t, s])))('%s on %s passes AA (4.5:1)', (fg, bg) => {
    expect(contrast(color(fg), color(bg))).toBeGreaterThanOrEqual(4.5);
  });

  it.each(filled)('%s on %s passes AA (4.5:1)', (fg, bg) => {
    expect(contrast(color(fg), color(bg))).toBeGreaterThanOrEqual(4.5);
  });

  it.each(surfaces)('focus ring and strong border are visible on %s (3:1)', (bg) => {
    expect(contrast(color('focus'), color(bg))).toBeGreaterThanOrEqual(3);
    expect(contrast(color('border-strong'), color(bg))).toBeGreaterThanOrEqual(3);
  });
});

it('both palettes define the same colour tokens', () => {
  const names = (p: Record<string, string>) =>
    Object.keys(p)
      .filter((k) => k.startsWith('color-') || k === 'shadow')
      .sort();
  expect(names(light)).toEqual(names(dark));
  expect(names(dark).length).toBeGreaterThan(30);
});

it('no colour literal appears in the SPA outside tokens.css', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(css|tsx?|jsx?)$/.test(entry) && !full.endsWith(path.join('styles', 'tokens.css'))) files.push(full);
    }
  };
  walk(path.join(root, 'src'));
  expect(files.length).toBeGreaterThan(0);
  const literal = /#[0-9a-fA-F]{3,8}\b(?![-\w])|\b(?:rgba?|hsla?|oklch|oklab|lab|lch)\(/;
  const offenders: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
      // Anchors like href="#section" and ids are not colours; only look at style-ish text.
      .replace(/(["'`])#[a-z][\w-]*\1/g, '""');
    text.split('\n').forEach((line, i) => {
      if (literal.test(line)) offenders.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(offenders).toEqual([]);
});
