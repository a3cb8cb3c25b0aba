/**
 * Money building blocks without a server: address encodings of the simulated chain, exact
 * currency conversion and bounds, webhook signatures, date bounds and CSV cells.
 */
import { describe, expect, it } from 'vitest';
import { bitcoinAddress, tronAddress } from '../../server/domain/payments/providers/crypto-address';
import { convertMinor, exchangeRate, parseDateBound, sumsInMinor } from '../../contract/payments';
import { findCurrency } from '../../contract/currencies';
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
  it('converts exactly and rounds toward zero', () => {
    expect(convertMinor(10_000, cur('USD'), cur('BTC'))).toBe(155_000); // 100 USD = 0.00155 BTC
    expect(convertMinor(10_000, cur('USD'), cur('EUR'))).toBe(9_200);
    expect(convertMinor(1, cur('EUR'), cur('USD'))).toBe(1); // 0.0108.. USD -> 1 cent, toward zero
    expect(convertMinor(1, cur('USD'), cur('BTC'))).toBe(15); // 0.01 USD = 0.000000155 BTC -> 15 sat
    expect(convertMinor(1, cur('USD'), cur('BTC'), 'up')).toBe(16);
    expect(convertMinor(123, cur('USD'), cur('USD'))).toBe(123);
    expect(exchangeRate(cur('USD'), cur('EUR'))).toBe(0.92);
    expect(exchangeRate(cur('USD'), cur('BTC'))).toBe(0.000015);
  });

  it('converts an ALL-currency method\'s USD bounds, min up and max down', () => {
    const method = { currency_code: 'ALL', supports_all_currencies: true, available_sums: { min: 10, max: 5000, currency: 'USD' } };
    expect(sumsInMinor(method, 'EUR')).toMatchObject({ min: 920, max: 460_000 });
    expect(sumsInMinor(method, 'BTC')).toMatchObject({ min: 15_500, max: 7_750_000 });
    const sepa = { currency_code: 'EUR', supports_all_currencies: false, available_sums: { min: 50, max: 20000, currency: 'EUR' } };
    expect(sumsInMinor(sepa, 'USD')).toBeNull();
    expect(sumsInMinor(sepa, 'eur')).toMatchObject({ min: 5_000, max: 2_000_000 });
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
