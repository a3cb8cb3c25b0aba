/** Trading screen: being built (issue "Trading"); this file is replaced by the trading feature. */
import { useT } from '../../i18n';

export function TradingPage() {
  const t = useT();
  return (
    <section className="container stack">
      <h1>{t('nav.trading')}</h1>
    </section>
  );
}
