/** The operator exports' CSV writer: quoting, and formula injection neutralised. */
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../server/infra/csv';

describe('csvCell', () => {
  it('prefixes an apostrophe to text that a spreadsheet would run as a formula', () => {
    for (const evil of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', '=HYPERLINK("http://x","y")']) {
      expect(csvCell(evil).replace(/^"/, '').startsWith("'")).toBe(true);
    }
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('=HYPERLINK("a")')).toBe(`"'=HYPERLINK(""a"")"`);
  });

  it('leaves plain text, numbers and empty cells as they are', () => {
    expect(csvCell('alice')).toBe('alice');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
});

describe('toCsv', () => {
  it('writes a header and rows with CRLF line ends', () => {
    expect(toCsv(['id', 'name'], [[1, '=evil'], [2, 'ok']])).toBe("id,name\r\n1,'=evil\r\n2,ok\r\n");
  });
});
