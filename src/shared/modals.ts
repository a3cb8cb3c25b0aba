/**
 * Modal ids and the props a modal component gets. Features open modals by id (through the
 * modals actor) and export the components; the app maps ids to components
 * (src/app/modal-registry.ts) and renders the open ones (src/app/modal-host.tsx). Here, in the
 * shared layer, so no feature imports the app.
 */
import type { ComponentType } from 'react';

export const MODAL_IDS = {
  deposit: 'deposit',
  withdraw: 'withdraw',
  transactionDetails: 'transactionDetails',
  pairSelector: 'pairSelector',
  demoReset: 'demoReset',
} as const;

export type ModalId = (typeof MODAL_IDS)[keyof typeof MODAL_IDS];

export interface ModalComponentProps {
  data: unknown;
  onClose: () => void;
}

export type ModalRegistry = Record<string, ComponentType<ModalComponentProps>>;
