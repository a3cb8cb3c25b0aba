/**
 * Modal ids and the components that draw them. Features own the components; the app maps ids
 * to them here (lazy, so a modal's code loads when it first opens).
 */
import type { ModalRegistry } from './modal-host';

export const MODAL_IDS = {
  deposit: 'deposit',
  withdraw: 'withdraw',
  transactionDetails: 'transactionDetails',
} as const;

export const MODALS: ModalRegistry = {};
