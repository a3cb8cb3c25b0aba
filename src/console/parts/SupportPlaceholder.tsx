/**
 * TODO(i27-support merge): stands in for src/console/support/SupportInbox (owned by the support
 * center's branch) until it is merged; ConsoleShell.tsx then loads the real inbox and this file
 * goes.
 */
import { EmptyState } from '../../components';
import { useT } from '../../i18n';

export function SupportPlaceholder() {
  const t = useT();
  return (
    <section className="console-area" aria-labelledby="support-title">
      <h1 id="support-title">{t('console.support.title')}</h1>
      <EmptyState title={t('console.support.placeholder')} level={2} />
    </section>
  );
}
