/**
 * Every migration, in order. A new migration is a new numbered file added here; a shipped
 * migration is never edited.
 */
import type { Migration } from 'kysely';
import * as m001 from './001_core';

export const migrations: Record<string, Migration> = {
  '001_core': m001,
};
