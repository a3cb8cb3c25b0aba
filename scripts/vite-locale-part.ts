/**
 * Vite plugin: `import { a, b } from '../../locales/en.json?part=<name>'` is the JSON file as a
 * module of its own (one per name), with one named export per top-level key, so each chunk
 * that imports a part holds only the namespaces it names (src/i18n/en-features.ts,
 * en-legal.ts); the first page imports the plain file's other namespaces (src/i18n/index.tsx).
 * Vite's own JSON plugin leaves an import with a query alone, hence this one.
 */
import fs from 'node:fs';
import type { Plugin } from 'vite';

const PART = /\.json\?part=[a-z-]+$/;

export function localePart(): Plugin {
  return {
    name: 'locale-part',
    enforce: 'pre',
    load(id) {
      if (!PART.test(id)) return null;
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const table = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      const lines = Object.entries(table).map(([key, value]) => `export const ${key} = ${JSON.stringify(value)};`);
      return { code: lines.join('\n'), moduleType: 'js' };
    },
  };
}
