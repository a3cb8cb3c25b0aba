import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

// Browser tests run the built SPA against a real server with a fresh database, in Debian's
// Chromium (CHROME_PATH overrides /usr/bin/chromium). `npm test` builds before this runs.
// A random port per run (kept for the workers through the environment) so parallel runs on one
// machine do not collide; E2E_PORT pins it. Below Linux's ephemeral range (32768-60999 by
// default), where an outgoing connection of anything on the machine may hold the port.
const port = Number((process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 12000))));
// The config is evaluated in the runner and again in every worker: the runner creates the data
// directory once and the workers inherit its path through the environment.
const dataDir = (process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'tt-e2e-')));

export default defineConfig({
  testDir: 'tests/e2e',
  // After every run: the operator's ledger audit on the e2e database; a difference fails the run.
  globalTeardown: './tests/e2e/global-teardown.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'npx tsx server/main.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      RATE_LIMIT: 'false',
      CRYPTO_CONFIRM_DELAY_SECONDS: '3',
    },
  },
});
