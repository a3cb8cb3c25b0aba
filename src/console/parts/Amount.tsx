/** Money held in minor units, formatted in the reader's language with a sign when asked. */
import { useFormat } from '../../i18n';
import { majorOf } from './format';

export function Amount({ minor, currency, signed = false }: { minor: number; currency: string; signed?: boolean }) {
  const format = useFormat();
  const text = format.money(majorOf(minor, currency), currency, { signed });
  const tone = !signed || minor === 0 ? undefined : minor > 0 ? 'console-gain' : 'console-loss';
  return <span className={tone ? `console-num ${tone}` : 'console-num'}>{text}</span>;
}
