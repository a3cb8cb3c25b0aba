/** The privacy policy at /privacy (public). Text: locales, namespace legal.privacy. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { PRIVACY_EMAIL } from './contacts';
import { LegalDocument } from './LegalDocument';

export const PRIVACY_SECTIONS = [
  'who_we_are',
  'data_we_collect',
  'how_we_use',
  'legal_bases',
  'sharing',
  'cookies',
  'retention',
  'security',
  'rights',
  'children',
  'changes',
  'contact',
] as const;

export function PrivacyPage({ isAuthenticated, headerExtras }: { isAuthenticated?: boolean; headerExtras?: ReactNode }) {
  const t = useT();
  return (
    <LegalDocument
      ns="legal.privacy"
      sections={PRIVACY_SECTIONS}
      email={PRIVACY_EMAIL}
      other={{ href: '/rules', label: t('nav.rules') }}
      isAuthenticated={isAuthenticated}
      headerExtras={headerExtras}
    />
  );
}

export default PrivacyPage;
