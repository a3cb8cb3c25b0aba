/**
 * server/db/errors.ts: the one classifier of unique violations. Registration had its own copy
 * that missed SQLite's primary-key code; every area now asks this one.
 */
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../server/db/errors';

describe('isUniqueViolation', () => {
  it.each([['SQLITE_CONSTRAINT_UNIQUE'], ['SQLITE_CONSTRAINT_PRIMARYKEY'], ['23505']])('is true for %s', (code) => {
    expect(isUniqueViolation(Object.assign(new Error('dup'), { code }))).toBe(true);
  });
  it.each([['SQLITE_CONSTRAINT_CHECK'], ['SQLITE_CONSTRAINT_FOREIGNKEY'], ['23503'], ['40001'], [undefined]])('is false for %s', (code) => {
    expect(isUniqueViolation(Object.assign(new Error('other'), { code }))).toBe(false);
  });
  it('is false for what is not an error object', () => {
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
