/**
 * Card numbers as withdrawal requisites (contract/payments.ts): which methods take one, the
 * 12-19 digit rule with spaces and hyphens allowed, the Luhn check, and the mask the owner sees
 * ("•••• 1111") while any other requisites (an IBAN, a wallet address) are returned as typed.
 */
import { describe, expect, it } from 'vitest';
import { cardDigits, cardNumberProblem, isCardMethod, luhnValid, maskedRequisites } from '../../contract/payments';

describe('card numbers', () => {
  it('applies to card methods only', () => {
    expect(isCardMethod({ category: 'cards' })).toBe(true);
    expect(isCardMethod({ category: 'bank' })).toBe(false);
    expect(isCardMethod({ category: 'crypto' })).toBe(false);
  });

  it('reads digits with spaces and hyphens, nothing else', () => {
    expect(cardDigits(' 4111 1111-1111 1111 ')).toBe('4111111111111111');
    expect(cardDigits('4111 1111 1111 111a')).toBeNull();
    expect(cardDigits('')).toBeNull();
  });

  it('checks the Luhn digit', () => {
    for (const n of ['4111111111111111', '5555555555554444', '378282246310005', '6011000990139424009', '4000001234567899']) expect(luhnValid(n), n).toBe(true);
    for (const n of ['4111111111111112', '5555555555554440', '1234']) expect(luhnValid(n), n).toBe(false);
    expect(luhnValid('abc')).toBe(false);
  });

  it('refuses fewer than 12 or more than 19 digits, then a failed check', () => {
    expect(cardNumberProblem('1234')).toBe('length');
    expect(cardNumberProblem('41111111111')).toBe('length'); // 11 digits
    expect(cardNumberProblem('4'.repeat(20))).toBe('length');
    expect(cardNumberProblem('abcd efgh ijkl mnop')).toBe('length');
    expect(cardNumberProblem('4111 1111 1111 1112')).toBe('checksum');
    expect(cardNumberProblem('4111 1111 1111 1111')).toBeNull();
    expect(cardNumberProblem('5555-5555-5555-4444')).toBeNull();
  });

  it('masks a card number to its last four digits and leaves other requisites alone', () => {
    expect(maskedRequisites('4111 1111 1111 1111')).toBe('•••• 1111');
    expect(maskedRequisites('5555-5555-5555-4444')).toBe('•••• 4444');
    expect(maskedRequisites('DE89 3704 0044 0532 0130 00')).toBe('DE89 3704 0044 0532 0130 00');
    expect(maskedRequisites('TQrZ9wBzYkZ5h4kW3mXz6vRrL1pK8sQe2N')).toBe('TQrZ9wBzYkZ5h4kW3mXz6vRrL1pK8sQe2N');
    expect(maskedRequisites('1234')).toBe('1234');
  });
});
