/**
 * Money: an amount with its currency symbol in the current language ("$1,234.50",
 * "1 234,50 $"), 2 decimals for fiat and the currency's own decimals for crypto, in tabular
 * figures. With `tone="auto"` the amount is green with an up arrow when positive, red with a
 * down arrow when negative and grey at zero, so the sign never rests on colour alone.
 */
import { useFormat } from '../i18n';
import { Icon } from './Icon';
import { cx } from './cx';
import './Money.css';

export type MoneyProps = {
  /** The amount in whole units of the currency (convert ledger minor units with fromMinor first). */
  amount: number;
  currency: string;
  /** Show "+" on positive amounts. */
  signed?: boolean;
  /** auto: colour and arrow by sign; gain/loss: force one; none (default): plain text. */
  tone?: 'none' | 'auto' | 'gain' | 'loss';
  decimals?: number;
  /** Show the ISO code instead of the symbol. */
  code?: boolean;
  className?: string;
};

export function Money({ amount, currency, signed = false, tone = 'none', decimals, code, className }: MoneyProps) {
  const format = useFormat();
  const text = format.money(amount, currency, { signed, decimals, code });
  const effective = tone === 'auto' ? (amount > 0 ? 'gain' : amount < 0 ? 'loss' : 'neutral') : tone;
  return (
    <span
      className={cx('money', 'tabular', effective !== 'none' && `money-${effective}`, className)}
      data-tone={effective === 'none' ? undefined : effective}
    >
      {effective === 'gain' ? <Icon name="up" size={14} className="money-arrow" /> : null}
      {effective === 'loss' ? <Icon name="down" size={14} className="money-arrow" /> : null}
      <span>{text}</span>
    </span>
  );
}
