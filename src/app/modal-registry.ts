/**
 * The components that draw the modals (ids: src/shared/modals.ts). Features own the
 * components; the app maps ids to them here (lazy, so a modal's code loads when it first opens).
 */
import { lazy } from 'react';
import { MODAL_IDS, type ModalRegistry } from '../shared/modals';

export const MODALS: ModalRegistry = {
  [MODAL_IDS.demoReset]: lazy(() => import('./shell/DemoResetDialog').then((m) => ({ default: m.DemoResetDialog }))),
  [MODAL_IDS.pairSelector]: lazy(() => import('../features/trading/PairSelectorModal').then((m) => ({ default: m.PairSelectorModal }))),
  [MODAL_IDS.deposit]: lazy(() => import('../features/wallet/DepositModal').then((m) => ({ default: m.DepositModal }))),
  [MODAL_IDS.withdraw]: lazy(() => import('../features/wallet/WithdrawModal').then((m) => ({ default: m.WithdrawModal }))),
  [MODAL_IDS.transactionDetails]: lazy(() =>
    import('../features/transactions/TransactionDetailsModal').then((m) => ({ default: m.TransactionDetailsModal })),
  ),
};
