/** Profile screen: being built (issue "Profile"); this file is replaced by the profile feature. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n';

export function ProfilePage({ transactions }: { transactions?: ReactNode }) {
  const t = useT();
  return (
    <section className="container stack">
      <h1>{t('nav.profile')}</h1>
      {transactions}
    </section>
  );
}
