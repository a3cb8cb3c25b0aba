/**
 * Money building blocks without a server: address encodings of the simulated chain, exact
 * currency conversion and bounds, webhook signatures, date bounds and CSV cells.
 */
import { describe, expect, it } from 'vitest';
import { bitcoinAddress, tronAddress } from '../../server/domain/payments/providers/crypto-address';
import { convertMinor, displayRate, limitStep, parseDateBound, paymentDecimals, roundLimits, roundToDecimals, sumsInMinor } from '../../contract/payments';
import { findCurrency, rateVia } from '../../contract/currencies';
import { cryptoWebhookSecret, verifyHmac } from '../../server/domain/payments/signing';
import { hmacHex } from '../../server/infra/crypto';
import { csvCell, formatUtc } from '../../server/domain/payments/transactions';

const cur = (code: string) => findCurrency(code)!;

describe('simulated chain addresses', () => {
  it('encodes a Bitcoin P2WPKH address as BIP-173 does', () => {
    expect(bitcoinAddress(Buffer.from('751e76e8199196d454941c45d1b3a323f1433bd6', 'hex'))).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
  });
  it('encodes a TRON address with Base58Check', () => {
    expect(tronAddress(Buffer.from('5a523b449890854c8fc460ab602df9f31fe4293f', 'hex'))).toBe('TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW');
  });
});

describe('conversion', () => {
  it('converts exactly at a rate and rounds toward zero (up for bounds and payers)', () => {
    expect(convertMinor(10_000, cur('USD'), cur('BTC'), 1 / 94_300)).toBe(106_044); // 100 USD = 0.00106044.. BTC
    expect(convertMinor(10_000, cur('EUR'), cur('USDT'), 1.1598)).toBe(11_598_000_000); // 100 EUR = 115.98 USDT
    expect(convertMinor(1, cur('EUR'), cur('USD'), 1.1598)).toBe(1); // 0.011598 USD -> 1 cent, toward zero
    expect(convertMinor(1, cur('USD'), cur('BTC'), 1 / 94_300)).toBe(10); // 0.01 USD = 0.000000106 BTC -> 10 sat
    expect(convertMinor(1, cur('USD'), cur('BTC'), 1 / 94_300, 'up')).toBe(11);
    expect(convertMinor(123, cur('USD'), cur('USD'), 5)).toBe(123);
    expect(convertMinor(1_000, cur('USD'), cur('JPY'), 155.123)).toBe(155_123);
    expect(() => convertMinor(1, cur('USD'), cur('EUR'), 0)).toThrow(RangeError);
  });

  it('shows rates toward zero with six significant decimals', () => {
    expect(displayRate(1.15987654)).toBe(1.159876);
    expect(displayRate(0.92)).toBe(0.92);
    expect(displayRate(1 / 94_300)).toBe(0.0000106044);
  });

  it('converts through USD with a rate table, naming its source and time', () => {
    const table = { EUR: { per_usd: 1 / 1.16, source: 'pair' as const, pair: 'EUR/USD', at: 1_000 }, BTC: { per_usd: 1 / 94_000, source: 'pair' as const, pair: 'BTC/USD', at: 2_000 } };
    expect(rateVia(table, 'EUR', 'USD')).toMatchObject({ rate: 1.16, source: 'pair', pairs: ['EUR/USD'], at: 1_000 });
    const cross = rateVia(table, 'EUR', 'BTC');
    expect(cross.rate).toBeCloseTo(1.16 / 94_000, 12);
    expect(cross).toMatchObject({ source: 'pair', pairs: ['EUR/USD', 'BTC/USD'], at: 1_000 });
    // USDT has no pair: its configured rate, and the conversion says so.
    expect(rateVia(table, 'EUR', 'USDT')).toMatchObject({ rate: 1.16, source: 'configured', pairs: ['EUR/USD'] });
    expect(rateVia(table, 'usd', 'USD')).toMatchObject({ rate: 1, source: 'base', pairs: [], at: null });
  });

  it('converts an ALL-currency method\'s USD bounds to round figures inside the stored range', () => {
    const method = { currency_code: 'ALL', supports_all_currencies: true, available_sums: { min: 10, max: 5000, currency: 'USD' } };
    const table = { EUR: { per_usd: 1 / 1.1598, source: 'pair' as const, pair: 'EUR/USD', at: 1 }, BTC: { per_usd: 1 / 94_300, source: 'pair' as const, pair: 'BTC/USD', at: 1 } };
    // $10 = €8.6222 -> €9; $5000 = €4311.09 -> €4000 (a step of 1-2-5 x 10^n, about a fifth of the figure).
    expect(sumsInMinor(method, 'EUR', table)).toMatchObject({ min: 900, max: 400_000 });
    // $10 = 0.00010604 BTC -> 0.00012; $5000 = 0.05302226 BTC -> 0.05.
    expect(sumsInMinor(method, 'BTC', table)).toMatchObject({ min: 12_000, max: 5_000_000 });
    // The configured rates only where no table is given (1 USD = 0.92 EUR: "Min €9.20" -> "Min €10").
    expect(sumsInMinor(method, 'EUR')).toMatchObject({ min: 1_000, max: 450_000 });
    // The SPA: rates attached to the method.
    expect(sumsInMinor({ ...method, rates: table }, 'EUR')).toMatchObject({ min: 900, max: 400_000 });
    const sepa = { currency_code: 'EUR', supports_all_currencies: false, available_sums: { min: 50, max: 20000, currency: 'EUR' } };
    expect(sumsInMinor(sepa, 'USD')).toBeNull();
    expect(sumsInMinor(sepa, 'eur')).toMatchObject({ min: 5_000, max: 2_000_000 });
  });

  it('rounds limits to 1-2-5 steps toward the inside, keeping the exact range when rounding leaves none', () => {
    expect(limitStep(920)).toBe(100);
    expect(limitStep(4)).toBe(1);
    expect(limitStep(155_000)).toBe(20_000);
    expect(roundLimits(920, 460_000)).toEqual({ min: 1_000, max: 450_000 });
    expect(roundLimits(155_000, 7_750_000)).toEqual({ min: 160_000, max: 7_000_000 });
    expect(roundLimits(1_000, 500_000)).toEqual({ min: 1_000, max: 500_000 }); // already round
    expect(roundLimits(1_010, 1_090)).toEqual({ min: 1_010, max: 1_090 }); // 1200 > 1000: exact range
  });

  it('rounds crypto amounts to the coin\'s network decimals', () => {
    expect(paymentDecimals(cur('USDT'), 'TRC20')).toBe(6);
    expect(paymentDecimals(cur('USDT'), 'ERC20')).toBe(6);
    expect(paymentDecimals(cur('USDT'), 'BEP20')).toBe(8); // 18 on chain, capped at what the ledger stores
    expect(paymentDecimals(cur('BTC'), 'Bitcoin')).toBe(8);
    expect(paymentDecimals(cur('ETH'), null)).toBe(8);
    expect(paymentDecimals(cur('EUR'), null)).toBe(2);
    // 54.34782608 USDT -> 54.347827 on TRC20 (up: the payer sends at least the value), down for payouts.
    expect(roundToDecimals(5_434_782_608, 8, 6, 'up')).toBe(5_434_782_700);
    expect(roundToDecimals(5_434_782_608, 8, 6, 'down')).toBe(5_434_782_600);
    expect(roundToDecimals(5_434_782_600, 8, 6, 'up')).toBe(5_434_782_600);
    expect(roundToDecimals(123, 8, 8, 'up')).toBe(123);
  });
});

describe('webhook signatures', () => {
  it('verifies the hex HMAC of the exact bytes, in constant time', () => {
    const body = Buffer.from('{"a":1}');
    const sig = hmacHex('sha512', 'secret-secret-secret', body);
    expect(verifyHmac('sha512', 'secret-secret-secret', body, sig)).toBe(true);
    expect(verifyHmac('sha512', 'secret-secret-secret', body, sig.toUpperCase())).toBe(true);
    expect(verifyHmac('sha512', 'secret-secret-secret', Buffer.from('{"a": 1}'), sig)).toBe(false);
    expect(verifyHmac('sha512', 'another-secret-here', body, sig)).toBe(false);
    expect(verifyHmac('sha256', 'secret-secret-secret', body, sig)).toBe(false);
    expect(verifyHmac('sha512', 'secret-secret-secret', body, undefined)).toBe(false);
    expect(verifyHmac('sha512', 'secret-secret-secret', body, 'zz')).toBe(false);
    expect(cryptoWebhookSecret('base')).not.toBe('base');
    expect(cryptoWebhookSecret('base')).toBe(cryptoWebhookSecret('base'));
  });
});

describe('history helpers', () => {
  it('parses date bounds as UTC days or unix seconds, date_to inclusive', () => {
    expect(parseDateBound('2024-02-29', false)).toBe(Date.UTC(2024, 1, 29));
    expect(parseDateBound('2024-02-29', true)).toBe(Date.UTC(2024, 2, 1) - 1);
    expect(parseDateBound('2023-02-29', false)).toBeNull();
    expect(parseDateBound('1700000000', false)).toBe(1_700_000_000_000);
    expect(parseDateBound('1700000000', true)).toBe(1_700_000_000_999);
    expect(parseDateBound('17-01-2024', false)).toBeNull();
  });

  it('makes CSV cells safe against formula injection and quoting', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+7 555')).toBe("'+7 555");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(null)).toBe('');
    expect(csvCell('100.00')).toBe('100.00');
    expect(formatUtc(Date.UTC(2024, 0, 5, 7, 8, 9))).toBe('05.01.2024 07:08:09');
  });
});
