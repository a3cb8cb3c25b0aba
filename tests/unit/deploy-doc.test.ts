/**
 * docs/deploy.md shows the nginx configuration the cluster test and bench run
 * (tests/support/nginx.ts, `siteConfig`) with placeholder addresses: the two must stay the same
 * text, so what operators copy is what CI proves. It also lists every environment variable
 * server/config.ts reads: a new one without a line there fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_PLACEHOLDERS, siteConfig } from '../support/nginx';

describe('docs/deploy.md', () => {
  it('holds the nginx configuration the cluster test runs', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
    const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(siteConfig(DOC_PLACEHOLDERS));
  });

  it('names every environment variable of server/config.ts', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
    const config = fs.readFileSync(path.resolve(import.meta.dirname, '../../server/config.ts'), 'utf8');
    const schema = config.slice(config.indexOf('const EnvSchema'), config.indexOf('export type Config'));
    const names = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((n) => !doc.includes(`\`${n}\``))).toEqual([]);
  });
});
