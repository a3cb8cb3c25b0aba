/**
 * The English table is split by where it is used (src/i18n: the first page's namespaces in
 * index.tsx, the logged-in features' in en-features.ts, the legal pages' in en-legal.ts): the
 * first page holds none of the later parts, and with both parts added every namespace of
 * locales/en.json is there, so a namespace added to the file cannot be left out of all three.
 */
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { appI18n } from '../../src/i18n';
import { addFeatureEnglish, FEATURE_NAMESPACES } from '../../src/i18n/en-features';
import { addLegalEnglish, LEGAL_NAMESPACES } from '../../src/i18n/en-legal';
import { addConsoleEnglish } from '../../src/i18n/en-console';

/** One key of the namespace (its first leaf). */
function firstKey(namespace: string): string {
  let node: unknown = (en as Record<string, unknown>)[namespace];
  let key = namespace;
  while (node && typeof node === 'object') {
    const [name, value] = Object.entries(node)[0];
    key += `.${name}`;
    node = value;
  }
  return key;
}

describe('English table parts', () => {
  it('keeps the feature and legal namespaces out of the first page, and has every namespace once they are added', () => {
    const later = [...Object.keys(FEATURE_NAMESPACES), ...Object.keys(LEGAL_NAMESPACES), 'console'];
    for (const namespace of later) expect(appI18n.has('en', firstKey(namespace)), namespace).toBe(false);
    addFeatureEnglish();
    addLegalEnglish();
    addConsoleEnglish();
    for (const namespace of Object.keys(en)) expect(appI18n.has('en', firstKey(namespace)), namespace).toBe(true);
    expect(appI18n.translate('en', 'legal.privacy.title')).toBe((en.legal as { privacy: { title: string } }).privacy.title);
  });
});
