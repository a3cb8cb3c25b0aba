import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localePart } from './scripts/vite-locale-part';

// Unit, machine-path and server tests run in Node; component tests in jsdom; `server-pg` runs the
// server tests again on PostgreSQL (a throwaway server started once per run, a fresh database per
// test server: tests/support/postgres.ts, docs/database.md).
// Browser end-to-end tests are Playwright's (playwright.config.ts), not Vitest's.

// Server tests that are about SQLite itself and have no PostgreSQL form (keep this list short):
const SQLITE_ONLY = [
  // Migrates SQLite files written by older versions (001-007) and checks the SQLite triggers on them.
  'tests/server/books-ledger.test.ts',
  // Takes its crash snapshot of a running server with SQLite's VACUUM INTO and edits the copied file.
  'tests/server/orders-seq-restart.test.ts',
  // SQLite's WAL checkpoints from a worker thread and SQLite's query plan of the settlement read.
  'tests/server/sqlite-checkpoints.test.ts',
];

// Server tests of what exists only on PostgreSQL (run by server-pg alone): its types, locks and
// guards, and several nodes on one database (docs/cluster.md).
const POSTGRES_ONLY = ['tests/server/postgres.test.ts', 'tests/server/cluster-*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [localePart()],
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/machines/**/*.test.ts', 'tests/server/**/*.test.ts'],
          exclude: POSTGRES_ONLY,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'server-pg',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          exclude: SQLITE_ONLY,
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        plugins: [localePart(), react()],
        test: {
          name: 'components',
          environment: 'jsdom',
          include: ['tests/components/**/*.test.tsx'],
          setupFiles: ['tests/support/jsdom-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // Three server processes on PostgreSQL and Redis behind nginx (tests/support/cluster.ts).
        test: {
          name: 'cluster',
          environment: 'node',
          include: ['tests/cluster/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
    ],
  },
});
