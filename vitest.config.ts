import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Unit, machine-path and server tests run in Node; component tests in jsdom.
// Browser end-to-end tests are Playwright's (playwright.config.ts), not Vitest's.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/machines/**/*.test.ts', 'tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        plugins: [react()],
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
