/**
 * The English texts of the legal pages (/privacy, /rules), the largest namespace of en.json:
 * loaded with those pages (src/features/legal), not with the first page. See en-features.ts
 * for why the JSON is imported under a query.
 */
import { legal } from '../../locales/en.json?part=legal';
import { addEnglish } from './index';

export const LEGAL_NAMESPACES = { legal };

export function addLegalEnglish(): void {
  addEnglish(LEGAL_NAMESPACES);
}
