/** Where a pair's logo is loaded from (spec section 3: absolute http(s) as is, else under the API base, which is this origin). */
import { pairLogoUrl, type Pair } from '../../../contract/market';

export function logoSrc(pair: Pair): string {
  return pairLogoUrl(pair.logo, typeof window === 'undefined' ? '' : window.location.origin);
}
