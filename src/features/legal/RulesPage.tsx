/** The terms of service and trading rules at /rules (public). Text: locales, namespace legal.rules. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { SUPPORT_EMAIL } from './contacts';
import { LegalDocument } from './LegalDocument';

export const RULES_SECTIONS = [
  'acceptance',
  'eligibility',
  'accounts',
  'demo_real',
  'trading',
  'prices',
  'early_close',
  'deposits_withdrawals',
  'prohibited',
  'risk',
  'liability',
  'suspension',
  'changes',
  'contact',
] as const;

export function RulesPage({ isAuthenticated, headerExtras }: { isAuthenticated?: boolean; headerExtras?: ReactNode }) {
  const t = useT();
  return (
    <LegalDocument
      ns="legal.rules"
      sections={RULES_SECTIONS}
      email={SUPPORT_EMAIL}
      other={{ href: '/privacy', label: t('nav.privacy') }}
      isAuthenticated={isAuthenticated}
      headerExtras={headerExtras}
    />
  );
}

export default RulesPage;
