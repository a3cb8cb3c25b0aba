/**
 * Vitest configuration of `npm run test:paths`: the machine tests (tests/machines) and the
 * mutation check (tests/mutation) in Node, each file in its own fork, with the coverage
 * collector as setup file and the coverage reporter printing ONE table at the end (the
 * per-file tables the path tests print are dropped here).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { localePart } from '../../../scripts/vite-locale-part';

export default defineConfig({
  // The live machine tests run the real composition root, which loads the features' English part.
  plugins: [localePart()],
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    name: 'paths',
    environment: 'node',
    include: ['tests/machines/**/*.test.ts', 'tests/mutation/**/*.test.ts'],
    setupFiles: ['tests/machines/path-coverage/collector.ts'],
    reporters: ['default', 'tests/machines/path-coverage/reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    onConsoleLog: (log) => !log.startsWith('Machine path coverage:'),
  },
});
