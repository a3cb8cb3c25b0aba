/**
 * PriceText: a price with the pair's precision in tabular figures. When the value changes it
 * flashes green (up) or red (down) for a moment with a matching arrow; with reduced motion it
 * only shows the arrow. While the feed is stale it turns muted with a clock mark and a hidden
 * "delayed" note (muted, not faded, so it still passes AA contrast). Not a
 * live region: ticks arrive several times a second and would drown a screen reader.
 */
import { useEffect, useRef, useState } from 'react';
import { useFormat, useT } from '../i18n';
import { Icon } from './Icon';
import { cx } from './cx';
import { useReducedMotion } from './hooks';
import './Money.css';

export type PriceTextProps = {
  value: number;
  /** Digits after the decimal point (5 most forex, 3 JPY pairs, 2 stocks). */
  precision: number;
  stale?: boolean;
  /** Keep the last direction's arrow visible after the flash (for tickers). */
  showDirection?: boolean;
  className?: string;
};

const FLASH_MS = 700;

export function PriceText({ value, precision, stale = false, showDirection = false, className }: PriceTextProps) {
  const format = useFormat();
  const t = useT();
  const reduced = useReducedMotion();
  const previous = useRef(value);
  const [move, setMove] = useState<{ direction: 'up' | 'down' | null; tick: number; flashing: boolean }>({
    direction: null,
    tick: 0,
    flashing: false,
  });

  useEffect(() => {
    const before = previous.current;
    previous.current = value;
    if (value === before || !Number.isFinite(value) || !Number.isFinite(before)) return;
    setMove((m) => ({ direction: value > before ? 'up' : 'down', tick: m.tick + 1, flashing: true }));
    const timer = setTimeout(() => setMove((m) => ({ ...m, flashing: false })), FLASH_MS);
    return () => clearTimeout(timer);
  }, [value]);

  const flashClass = move.flashing && !reduced && move.direction ? `price-flash-${move.direction}` : undefined;
  const arrowVisible = move.direction !== null && (move.flashing || showDirection);
  return (
    <span className={cx('price', 'tabular', stale && 'price-stale', className)} data-direction={move.direction ?? undefined}>
      <span key={move.tick} className={cx('price-value', flashClass)}>
        {format.price(value, precision)}
      </span>
      {arrowVisible && move.direction ? (
        <Icon name={move.direction} size={12} className={`price-arrow-${move.direction}`} />
      ) : null}
      {stale ? <Icon name="clock" size={12} className="price-stale-icon" /> : null}
      {stale ? <span className="visually-hidden"> ({t('components.price.stale')})</span> : null}
    </span>
  );
}
