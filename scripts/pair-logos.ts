/**
 * Writes the pair logos, public/pairs/<PAIR_CODE>.svg, for every pair of the catalogue (issue 26
 * item 4). Our own work, drawn here, dedicated to the public domain (CC0 1.0: public/pairs/LICENSE);
 * no trademark is copied: a mark names its asset with letters or a plain pictogram.
 *
 * Made to be read at the size the app shows them (24-28 px): one large glyph or a short word,
 * stretched to a fixed width (textLength) instead of shrinking the letters.
 *   forex        two overlapping roundels, the base currency's symbol large in front (upper left),
 *                the quote currency's behind (lower right), each in its own colour
 *   crypto       a coin in the coin's colour with its ticker
 *   stocks       a rounded square with the ticker
 *   commodities  a pictogram: a bar with the element's symbol (metals), a drop (oil), a flame (gas)
 *
 * Run: npx tsx scripts/pair-logos.ts   (the output is committed; the app never runs this)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE, type PairSpec } from '../server/domain/market/catalogue';

const OUT = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'public', 'pairs');
const FONT = "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif";

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Centred bold text; `width` stretches or squeezes it to that many units (legible at any length). */
function text(x: number, y: number, size: number, value: string, fill = '#fff', width?: number): string {
  const fit = width ? ` textLength="${width}" lengthAdjust="spacingAndGlyphs"` : '';
  return `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" font-weight="800" fill="${fill}" text-anchor="middle" dominant-baseline="central"${fit}>${esc(value)}</text>`;
}

function svg(label: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>${body}</svg>\n`;
}

/** Each currency's symbol (as short as it is unambiguous) and colour. */
const CURRENCIES: Record<string, { symbol: string; color: string }> = {
  EUR: { symbol: '€', color: '#1f4fb3' },
  USD: { symbol: '$', color: '#1b7f3b' },
  GBP: { symbol: '£', color: '#6a1b9a' },
  JPY: { symbol: '¥', color: '#c62828' },
  CHF: { symbol: 'Fr', color: '#d32f2f' },
  AUD: { symbol: 'A$', color: '#00695c' },
  CAD: { symbol: 'C$', color: '#b71c1c' },
  NZD: { symbol: 'NZ$', color: '#263238' },
  TRY: { symbol: 'TL', color: '#e53935' },
};

/** A roundel with a currency's symbol: one glyph large, two or three stretched to fit. */
function roundel(cx: number, cy: number, r: number, code: string, ring: boolean): string {
  const c = CURRENCIES[code] ?? { symbol: code, color: '#455a64' };
  const n = [...c.symbol].length;
  const size = n === 1 ? r * 1.35 : r * 0.95;
  const width = n === 1 ? undefined : r * (n === 2 ? 1.45 : 1.6);
  const stroke = ring ? ' stroke="#fff" stroke-width="3"' : '';
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${c.color}"${stroke}/>${text(cx, cy + 1, size, c.symbol, '#fff', width)}`;
}

function forex(spec: PairSpec): string {
  const [base, quote] = spec.pair_human_code.split('/');
  // The quote behind (lower right), the base in front (upper left), ringed to separate them.
  return svg(spec.pair_human_code, roundel(42, 42, 20, quote, false) + roundel(23, 23, 21, base, true));
}

const COINS: Record<string, string> = {
  BTC: '#f7931a',
  ETH: '#627eea',
  BNB: '#d9a100',
  SOL: '#7b3fe4',
  XRP: '#23292f',
  LTC: '#345d9d',
  ADA: '#0033ad',
  DOGE: '#b59a35',
  DOT: '#e6007a',
  AVAX: '#e84142',
};

function coin(spec: PairSpec): string {
  const ticker = spec.pair_human_code.split('/')[0];
  const color = COINS[ticker] ?? '#546e7a';
  const width = ticker.length <= 3 ? 40 : 46;
  const body = `<circle cx="32" cy="32" r="30" fill="${color}"/><circle cx="32" cy="32" r="25" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width="2"/>${text(32, 33, 22, ticker, '#fff', width)}`;
  return svg(spec.pair_human_code, body);
}

const STOCKS: Record<string, string> = {
  AAPL: '#3c3c3c',
  MSFT: '#0067b8',
  NVDA: '#5a8f00',
  AMZN: '#232f3e',
  GOOGL: '#1a73e8',
  META: '#0866ff',
  TSLA: '#c00000',
  NFLX: '#b20710',
  JPM: '#5b4636',
  V: '#1a1f71',
  AMD: '#1b1b1b',
};

function stock(spec: PairSpec): string {
  const ticker = spec.pair_code;
  const color = STOCKS[ticker] ?? '#455a64';
  const size = ticker.length === 1 ? 38 : ticker.length <= 3 ? 24 : 21;
  const width = ticker.length === 1 ? undefined : ticker.length <= 3 ? 44 : 52;
  return svg(spec.pair_human_code, `<rect x="2" y="2" width="60" height="60" rx="14" fill="${color}"/>${text(32, 33, size, ticker, '#fff', width)}`);
}

/** A metal bar seen from the front, with the element's symbol. */
function metal(label: string, symbol: string, face: string, edge: string, ink: string): string {
  const body = `<rect x="2" y="2" width="60" height="60" rx="14" fill="#263238"/><path d="M10 50 L18 18 H46 L54 50 Z" fill="${face}" stroke="${edge}" stroke-width="2.5" stroke-linejoin="round"/><path d="M20 22 H44" stroke="#fff" stroke-opacity=".55" stroke-width="2.5" stroke-linecap="round"/>${text(32, 36, 26, symbol, ink)}`;
  return svg(label, body);
}

function oil(label: string, word: string, color: string): string {
  const body = `<rect x="2" y="2" width="60" height="60" rx="14" fill="${color}"/><path d="M32 7 C32 7 13 29 13 41 A19 19 0 0 0 51 41 C51 29 32 7 32 7 Z" fill="#111" stroke="#fff" stroke-opacity=".8" stroke-width="2"/>${text(32, 42, 16, word, '#fff', word.length > 1 ? 30 : undefined)}`;
  return svg(label, body);
}

function gas(label: string): string {
  const body = `<rect x="2" y="2" width="60" height="60" rx="14" fill="#0d47a1"/><path d="M32 8 C36 18 47 24 47 38 A15 15 0 0 1 17 38 C17 29 23 25 25 17 C28 23 30 25 32 26 C33 20 33 14 32 8 Z" fill="#42a5f5"/><path d="M32 30 C35 35 40 37 40 43 A8 8 0 0 1 24 43 C24 38 29 36 32 30 Z" fill="#e3f2fd"/>`;
  return svg(label, body);
}

function commodity(spec: PairSpec): string {
  switch (spec.pair_code) {
    case 'XAUUSD':
      return metal(spec.pair_human_code, 'Au', '#f2c230', '#a87b00', '#3e2a00');
    case 'XAGUSD':
      return metal(spec.pair_human_code, 'Ag', '#cfd8dc', '#78909c', '#263238');
    case 'XPTUSD':
      return metal(spec.pair_human_code, 'Pt', '#b0bec5', '#546e7a', '#102027');
    case 'XPDUSD':
      return metal(spec.pair_human_code, 'Pd', '#d7ccc8', '#8d6e63', '#3e2723');
    case 'USOIL':
      return oil(spec.pair_human_code, 'WTI', '#37474f');
    case 'UKOIL':
      return oil(spec.pair_human_code, 'B', '#4e342e');
    case 'NATGAS':
      return gas(spec.pair_human_code);
    default:
      return svg(spec.pair_human_code, `<rect x="2" y="2" width="60" height="60" rx="14" fill="#455a64"/>${text(32, 33, 22, spec.pair_code.slice(0, 3), '#fff', 44)}`);
  }
}

export function pairLogo(spec: PairSpec): string {
  if (spec.category === 'forex') return forex(spec);
  if (spec.category === 'crypto') return coin(spec);
  if (spec.category === 'stocks') return stock(spec);
  return commodity(spec);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const spec of CATALOGUE) writeFileSync(join(OUT, `${spec.pair_code}.svg`), pairLogo(spec));
  console.log(`${CATALOGUE.length} logos written to ${OUT}`);
}
