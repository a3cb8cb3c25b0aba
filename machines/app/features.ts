/**
 * The app's features: the children of the root app machine that only a logged-in person uses
 * (the live socket, trading, money, profile, trader tools). Their code is not part of the first
 * page: the root machine names them like every other child, and the composition root
 * (src/app/create-app-actor.ts) provides their logic from a chunk it loads when a session opens
 * (the `loadFeatures` actor). Here: the names, the type of that logic, and the stand-in the
 * machine's own setup carries until it is provided. The real machines are gathered in
 * feature-machines.ts (imported by the feature chunk and by tests, never by the first page).
 */
import { fromCallback, type AnyActorLogic } from 'xstate';
import type { socketMachine } from '../socket/socket.machine';
import type { paymentMethodsMachine } from '../payment-methods/payment-methods.machine';
import type { transactionsMachine } from '../transactions/transactions.machine';
import type { depositMachine } from '../deposit/deposit.machine';
import type { withdrawMachine } from '../withdraw/withdraw.machine';
import type { pairsMachine } from '../pairs/pairs.machine';
import type { orderPlacementMachine } from '../order-placement/order-placement.machine';
import type { ordersMachine } from '../orders/orders.machine';
import type { orderCloseMachine } from '../order-close/order-close.machine';
import type { chartSetupMachine } from '../chart-setup/chart-setup.machine';
import type { traderPrefsMachine } from '../trader-prefs/trader-prefs.machine';
import type { priceAlertsMachine } from '../price-alerts/price-alerts.machine';
import type { profilePageMachine } from '../profile/profile-page.machine';
import type { supportMachine } from '../support/support.machine';

/** The logic of every feature child, by the child's id (and systemId). */
export interface FeatureLogic {
  socket: typeof socketMachine;
  paymentMethods: typeof paymentMethodsMachine;
  transactions: typeof transactionsMachine;
  deposit: typeof depositMachine;
  withdraw: typeof withdrawMachine;
  pairs: typeof pairsMachine;
  orderPlacement: typeof orderPlacementMachine;
  orders: typeof ordersMachine;
  orderClose: typeof orderCloseMachine;
  chartSetup: typeof chartSetupMachine;
  traderPrefs: typeof traderPrefsMachine;
  priceAlerts: typeof priceAlertsMachine;
  profilePage: typeof profilePageMachine;
  support: typeof supportMachine;
}

/** The feature children's ids, the keys of FeatureLogic. */
export const FEATURE_CHILDREN = [
  'socket',
  'paymentMethods',
  'transactions',
  'deposit',
  'withdraw',
  'pairs',
  'orderPlacement',
  'orders',
  'orderClose',
  'chartSetup',
  'traderPrefs',
  'priceAlerts',
  'profilePage',
  'support',
] as const satisfies ReadonlyArray<keyof FeatureLogic>;

/**
 * The stand-in for a feature child's logic in the root machine's setup: typed as the real
 * machine (so `snapshot.children.<id>` is typed), failing loudly if it is ever spawned without
 * the real logic provided. The one type assertion of the app machine: a callback actor is not
 * that machine, which is why spawning it throws.
 */
export function providedLater<TLogic extends AnyActorLogic>(id: keyof FeatureLogic): TLogic {
  const missing = fromCallback(() => {
    throw new Error(`app: the '${id}' child was spawned without its logic; provide it (src/app/create-app-actor.ts does, once the feature chunk is loaded)`);
  });
  return missing as unknown as TLogic;
}
