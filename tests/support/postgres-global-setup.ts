/**
 * Vitest globalSetup of the `server-pg` project: one throwaway PostgreSQL for the whole run
 * (tests/support/postgres.ts), its address handed to the test workers with `provide`
 * (`inject('pgAdminUrl')` in tests/support/test-database.ts), stopped at the end.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The maintenance database of the test PostgreSQL; absent on the SQLite projects. */
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const server = await startPostgres();
  project.provide('pgAdminUrl', server.adminUrl);
  // Also when the run ends without its teardown (an interrupted run); stop() runs once.
  process.once('exit', () => server.stop());
  return () => server.stop();
}
