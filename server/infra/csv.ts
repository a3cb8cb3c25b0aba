/**
 * The CSV writer of every operator export (RFC 4180: comma-separated, CRLF line ends, a cell
 * quoted when it holds a comma, a quote or a line break, quotes doubled). Formula injection is
 * neutralised: a text cell that starts with =, +, -, @, a tab or a carriage return gets a leading
 * apostrophe, so a spreadsheet shows it as text instead of running it (OWASP "CSV Injection").
 * Numbers are written as numbers (a negative amount stays a number, not text).
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = typeof value === 'boolean' ? (value ? 'true' : 'false') : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: the header row, then one row per record. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
