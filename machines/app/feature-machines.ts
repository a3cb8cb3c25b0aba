/**
 * The feature children's machines, unprovided, by child id (see features.ts). The feature
 * chunk of the SPA provides each with its real effects (src/services/feature-actors.ts);
 * machine and component tests spread this into `appMachine.provide({ actors })` and override
 * what they stub. Never imported by the first page.
 */
import type { FeatureLogic } from './features';
import { socketMachine } from '../socket/socket.machine';
import { paymentMethodsMachine } from '../payment-methods/payment-methods.machine';
import { transactionsMachine } from '../transactions/transactions.machine';
import { depositMachine } from '../deposit/deposit.machine';
import { withdrawMachine } from '../withdraw/withdraw.machine';
import { pairsMachine } from '../pairs/pairs.machine';
import { orderPlacementMachine } from '../order-placement/order-placement.machine';
import { ordersMachine } from '../orders/orders.machine';
import { orderCloseMachine } from '../order-close/order-close.machine';
import { chartSetupMachine } from '../chart-setup/chart-setup.machine';
import { traderPrefsMachine } from '../trader-prefs/trader-prefs.machine';
import { priceAlertsMachine } from '../price-alerts/price-alerts.machine';
import { profilePageMachine } from '../profile/profile-page.machine';
import { supportMachine } from '../support/support.machine';

export const FEATURE_MACHINES: FeatureLogic = {
  socket: socketMachine,
  paymentMethods: paymentMethodsMachine,
  transactions: transactionsMachine,
  deposit: depositMachine,
  withdraw: withdrawMachine,
  pairs: pairsMachine,
  orderPlacement: orderPlacementMachine,
  orders: ordersMachine,
  orderClose: orderCloseMachine,
  chartSetup: chartSetupMachine,
  traderPrefs: traderPrefsMachine,
  priceAlerts: priceAlertsMachine,
  profilePage: profilePageMachine,
  support: supportMachine,
};
