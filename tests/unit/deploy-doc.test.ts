/**
 * docs/deploy.md shows the nginx configuration the cluster test and bench run
 * (tests/support/nginx.ts, `siteConfig`) with placeholder addresses: the two must stay the same
 * text, so what operators copy is what CI proves.
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
});
