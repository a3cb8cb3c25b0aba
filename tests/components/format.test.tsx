/**
 * Money, DateTime and PriceText: symbol and decimals per currency and language, sign and
 * gain/loss tone with an arrow, seconds vs milliseconds, and the price flash direction.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Money } from '../../src/components/Money';
import { DateTime } from '../../src/components/DateTime';
import { PriceText } from '../../src/components/PriceText';
import { I18nProvider } from '../../src/i18n';
import { formatCountdown, formatCurrencyName, formatMoney, formatPercent, formatPrice, warmFormats } from '../../src/i18n/format';

// Intl puts no-break spaces (U+00A0, U+202F) in ru/es numbers; compare with plain spaces.
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('Money', () => {
  it('formats fiat with the symbol and 2 decimals in English', () => {
    const { container } = render(<Money amount={1234.5} currency="USD" />);
    expect(container.textContent).toBe('$1,234.50');
  });

  it('shows crypto with its code after the number, up to its own decimals without trailing zeros beyond 2', () => {
    const { container } = render(<Money amount={0.0123} currency="BTC" />);
    expect(plain(container.textContent)).toBe('0.0123 BTC');
    expect(plain(formatMoney(100, 'USDT', 'en'))).toBe('100.00 USDT');
    expect(plain(formatMoney(0.00155, 'BTC', 'en'))).toBe('0.00155 BTC');
    expect(plain(formatMoney(0.00155, 'BTC', 'ru'))).toBe('0,00155 BTC');
    expect(plain(formatMoney(1234.5, 'USDT', 'es'))).toBe('1234,50 USDT');
    expect(plain(formatMoney(0.12345678, 'ETH', 'en'))).toBe('0.12345678 ETH');
    expect(plain(formatMoney(-0.5, 'BTC', 'en', { signed: true }))).toBe('-0.50 BTC');
    expect(plain(formatMoney(0.5, 'BTC', 'en', { signed: true }))).toBe('+0.50 BTC');
    expect(plain(formatMoney(0.000000019, 'BTC', 'en'))).toBe('0.00000001 BTC');
    expect(plain(formatMoney(0.000000009, 'BTC', 'en'))).toBe('0.00 BTC');
    expect(plain(formatMoney(2, 'USDT', 'en', { code: true }))).toBe('2.00 USDT');
    // An explicit precision is kept as asked.
    expect(plain(formatMoney(1, 'BTC', 'en', { decimals: 8 }))).toBe('1.00000000 BTC');
  });

  it('keeps fiat at 2 decimals with the symbol, or the code when asked', () => {
    expect(formatMoney(50, 'USD', 'en', { code: true })).toBe('USD\u00a050.00');
    expect(plain(formatMoney(50, 'USD', 'ru', { code: true }))).toBe('50,00 USD');
    expect(formatMoney(7, 'USD', 'en')).toBe('$7.00');
  });

  it('puts the symbol after the amount in Russian and Spanish', () => {
    const ru = render(
      <I18nProvider language="ru">
        <Money amount={1234.5} currency="EUR" />
      </I18nProvider>,
    );
    expect(plain(ru.container.textContent)).toBe('1 234,50 €');
    ru.unmount();
    const es = render(
      <I18nProvider language="es">
        <Money amount={12345.5} currency="EUR" />
      </I18nProvider>,
    );
    expect(plain(es.container.textContent)).toBe('12.345,50 €');
  });

  it('shows the sign and colours gains, losses and zero, with arrows for the first two', () => {
    const { container } = render(
      <>
        <Money amount={12.3} currency="USD" signed tone="auto" />
        <Money amount={-7} currency="USD" signed tone="auto" />
        <Money amount={0} currency="USD" signed tone="auto" />
      </>,
    );
    const [gain, loss, zero] = Array.from(container.querySelectorAll('.money'));
    expect(gain.textContent).toBe('+$12.30');
    expect(gain.getAttribute('data-tone')).toBe('gain');
    expect(gain.querySelector('[data-icon="up"]')).not.toBeNull();
    expect(loss.textContent).toBe('-$7.00');
    expect(loss.getAttribute('data-tone')).toBe('loss');
    expect(loss.querySelector('[data-icon="down"]')).not.toBeNull();
    expect(zero.textContent).toBe('$0.00');
    expect(zero.getAttribute('data-tone')).toBe('neutral');
    expect(zero.querySelector('svg')).toBeNull();
  });

  it('rounds toward zero, never up', () => {
    expect(formatMoney(10.999, 'USD', 'en')).toBe('$10.99');
    expect(formatMoney(-10.999, 'USD', 'en')).toBe('-$10.99');
    expect(formatMoney(0.29, 'USD', 'en')).toBe('$0.29');
  });

  it('spaces letter symbols from the digits', () => {
    expect(plain(formatMoney(5, 'CHF', 'en'))).toBe('CHF 5.00');
  });
});

describe('DateTime', () => {
  // Built from local calendar fields so the test does not depend on the machine's time zone.
  const local = new Date(2024, 0, 5, 9, 7, 3);

  it('formats unix seconds as DD.MM.YYYY HH:mm', () => {
    const { container } = render(<DateTime value={Math.floor(local.getTime() / 1000)} />);
    expect(container.textContent).toBe('05.01.2024 09:07');
    expect(container.querySelector('time')!.getAttribute('dateTime')).toBe(new Date(local.getTime()).toISOString());
  });

  it('formats milliseconds with seconds when asked', () => {
    const { container } = render(<DateTime value={local.getTime()} withSeconds />);
    expect(container.textContent).toBe('05.01.2024 09:07:03');
  });

  it('shows a dash for a missing value', () => {
    const { container } = render(<DateTime value={null} />);
    expect(container.textContent).toBe('—');
  });
});

describe('PriceText', () => {
  it('shows the pair precision and flashes the direction of a change', () => {
    const { container, rerender } = render(<PriceText value={1.08523} precision={5} />);
    expect(container.textContent).toBe('1.08523');
    const root = () => container.querySelector('.price')!;
    expect(root().getAttribute('data-direction')).toBeNull();

    rerender(<PriceText value={1.08531} precision={5} />);
    expect(root().getAttribute('data-direction')).toBe('up');
    expect(container.querySelector('.price-flash-up')).not.toBeNull();
    expect(container.querySelector('[data-icon="up"]')).not.toBeNull();

    rerender(<PriceText value={1.085} precision={5} />);
    expect(root().getAttribute('data-direction')).toBe('down');
    expect(container.querySelector('.price-flash-down')).not.toBeNull();
    expect(container.textContent).toBe('1.08500');
  });

  it('ends the flash after a moment', async () => {
    const { container, rerender } = render(<PriceText value={150.1} precision={3} />);
    rerender(<PriceText value={150.2} precision={3} />);
    expect(container.querySelector('.price-flash-up')).not.toBeNull();
    await act(() => new Promise((r) => setTimeout(r, 800)));
    expect(container.querySelector('.price-flash-up')).toBeNull();
  });

  it('does not flash with reduced motion, but still shows the arrow', () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...original(query), matches: query.includes('reduce') })) as typeof window.matchMedia;
    try {
      const { container, rerender } = render(<PriceText value={10} precision={2} />);
      rerender(<PriceText value={11} precision={2} />);
      expect(container.querySelector('.price-flash-up')).toBeNull();
      expect(container.querySelector('[data-icon="up"]')).not.toBeNull();
    } finally {
      window.matchMedia = original;
    }
  });

  it('marks a stale price for screen readers', () => {
    render(<PriceText value={10} precision={2} stale />);
    expect(screen.getByText(/price delayed/)).toBeTruthy();
  });

  it('formats prices and countdowns', () => {
    expect(formatPrice(151.2345, 3, 'en')).toBe('151.235');
    expect(plain(formatPrice(64231.5, 2, 'ru'))).toBe('64 231,50');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});

describe('currency names', () => {
  it('names a currency in the language and keeps the catalogue name for codes Intl does not know', () => {
    expect(formatCurrencyName('EUR', 'Euro', 'ru')).toBe('евро');
    expect(formatCurrencyName('USD', 'US Dollar', 'es')).toBe('dólar estadounidense');
    expect(formatCurrencyName('USDT', 'Tether USD', 'ru')).toBe('Tether USD');
    expect(formatCurrencyName('BTC', 'Bitcoin', 'es')).toBe('Bitcoin');
  });
});

describe('warmFormats', () => {
  it('builds the first formats one per scheduled step, and formatting is unchanged after', () => {
    const queue: Array<() => void> = [];
    warmFormats('ru', (step) => queue.push(step));
    let steps = 0;
    while (queue.length > 0) {
      // Never more than one step waiting: each runs in a task of its own.
      expect(queue.length).toBe(1);
      queue.shift()!();
      steps += 1;
    }
    expect(steps).toBe(4);
    expect(formatMoney(1234.5, 'USD', 'ru')).toBe('1\u00a0234,50\u00a0$');
    expect(formatPrice(1.16012, 5, 'ru')).toBe('1,16012');
    expect(formatPercent(0.82, 'ru')).toBe('82\u00a0%');
    expect(formatPercent(0.0123, 'ru', 2)).toBe('1,23\u00a0%');
  });
});
