/**
 * Dates typed in the language's format (contract/dates.ts, issue 26): each language's order
 * and separator, read into ISO; real dates only; ISO accepted everywhere.
 */
import { describe, expect, it } from 'vitest';
import { formatLocalDate, parseLocalDate } from '../../contract/dates';

describe('local dates', () => {
  it('writes an ISO date in each language', () => {
    expect(formatLocalDate('2026-03-07', 'ru')).toBe('07.03.2026');
    expect(formatLocalDate('2026-03-07', 'es')).toBe('07/03/2026');
    expect(formatLocalDate('2026-03-07', 'en')).toBe('03/07/2026');
    expect(formatLocalDate('', 'ru')).toBe('');
    expect(formatLocalDate('07.03.2026', 'ru')).toBe('');
  });

  it('reads the language order with any separator, one or two digits, and ISO in every language', () => {
    expect(parseLocalDate('07.03.2026', 'ru')).toBe('2026-03-07');
    expect(parseLocalDate(' 7/3/2026 ', 'es')).toBe('2026-03-07');
    expect(parseLocalDate('03/07/2026', 'en')).toBe('2026-03-07');
    expect(parseLocalDate('3-7-2026', 'en')).toBe('2026-03-07');
    expect(parseLocalDate('2026-03-07', 'ru')).toBe('2026-03-07');
  });

  it('refuses what is not a real date or not in the format', () => {
    expect(parseLocalDate('31.02.2026', 'ru')).toBeNull();
    expect(parseLocalDate('13/25/2026', 'en')).toBeNull();
    expect(parseLocalDate('25/12/2026', 'en')).toBeNull();
    expect(parseLocalDate('07.03.26', 'ru')).toBeNull();
    expect(parseLocalDate('tomorrow', 'es')).toBeNull();
    expect(parseLocalDate('', 'ru')).toBeNull();
  });
});
