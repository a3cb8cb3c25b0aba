/**
 * Every relative link in the README and docs/ points at a file of this repository (a renamed or
 * moved file leaves no dead link behind). Links that leave the repository (the design notes in
 * shared/ beside it) and web addresses are not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? markdownFiles(full) : e.name.endsWith('.md') ? [full] : [];
  });
}

function deadLinks(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const dead: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    const resolved = path.resolve(path.dirname(file), decodeURIComponent(target.split('#')[0]));
    if (!resolved.startsWith(root + path.sep)) continue;
    if (!fs.existsSync(resolved)) dead.push(`${path.relative(root, file)}: ${target}`);
  }
  return dead;
}

describe('documentation links', () => {
  it('every relative link resolves', () => {
    const files = [path.join(root, 'README.md'), ...markdownFiles(path.join(root, 'docs')), path.join(root, 'machines/README.md')];
    expect(files.flatMap(deadLinks)).toEqual([]);
  });

  it('a link to a missing file is found (the check can fail)', () => {
    const tmp = path.join(root, 'docs', '.links-selftest.md');
    fs.writeFileSync(tmp, '[gone](no-such-file.md) [web](https://example.org) [anchor](#x)');
    try {
      expect(deadLinks(tmp)).toEqual(['docs/.links-selftest.md: no-such-file.md']);
    } finally {
      fs.rmSync(tmp);
    }
  });
});
