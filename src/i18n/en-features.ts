/**
 * The English texts of the logged-in features (profile, trading, orders, money, trader tools),
 * kept out of the first page: the composition root loads this module with the feature chunk
 * (src/app/create-app-actor.ts) and adds the texts before any feature view renders. The same
 * en.json, imported as a part (scripts/vite-locale-part.ts) so that it is a module of its own holding only these
 * namespaces. Russian and Spanish load whole when chosen (index.tsx).
 */
import { alerts, console_support, date_field, deposit, journal, orders, profile, shortcuts, support, trading, transactions, wallet, withdraw } from '../../locales/en.json?part=features';
import { addEnglish } from './index';

export const FEATURE_NAMESPACES = { profile, orders, trading, transactions, deposit, withdraw, journal, wallet, alerts, shortcuts, support, console_support, date_field };

export function addFeatureEnglish(): void {
  addEnglish(FEATURE_NAMESPACES);
}
