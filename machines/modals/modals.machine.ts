/**
 * The stack of open modals (spec section 4, "Theme and modals": opening a modal replaces any
 * modal with the same id, closing removes by id, a close-all exists).
 *
 * Lifecycle: long-lived, spawned by the app. `closed` while the stack is empty, `open` while
 * anything is shown (the view locks page scrolling in `open`). The last entry of `open` is on
 * top. `data` is whatever the opener hands the modal (e.g. a transaction id).
 */
import { assertEvent, assign, setup } from 'xstate';

export interface ModalEntry {
  id: string;
  data?: unknown;
}

export interface ModalsContext {
  open: ModalEntry[];
}

export type ModalsEvent =
  | { type: 'modal.openRequested'; id: string; data?: unknown }
  | { type: 'modal.closeRequested'; id: string }
  | { type: 'modal.allClosed' };

export const modalsMachine = setup({
  types: {
    context: {} as ModalsContext,
    events: {} as ModalsEvent,
  },
  actions: {
    openModal: assign(({ context, event }) => {
      assertEvent(event, 'modal.openRequested');
      const entry: ModalEntry = event.data === undefined ? { id: event.id } : { id: event.id, data: event.data };
      return { open: [...context.open.filter((m) => m.id !== event.id), entry] };
    }),
    closeModal: assign(({ context, event }) => {
      assertEvent(event, 'modal.closeRequested');
      return { open: context.open.filter((m) => m.id !== event.id) };
    }),
    closeAll: assign({ open: [] }),
  },
  guards: {
    isLastOpenModal: ({ context, event }) => {
      assertEvent(event, 'modal.closeRequested');
      return context.open.every((m) => m.id === event.id);
    },
  },
}).createMachine({
  id: 'modals',
  context: { open: [] },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'modal.openRequested': { target: 'open', actions: 'openModal' },
      },
    },
    open: {
      on: {
        'modal.openRequested': { description: 'The same id replaces the earlier entry and comes on top.', actions: 'openModal' },
        'modal.closeRequested': [
          { guard: 'isLastOpenModal', target: 'closed', actions: 'closeModal' },
          { actions: 'closeModal' },
        ],
        'modal.allClosed': { target: 'closed', actions: 'closeAll' },
      },
    },
  },
});


/** The modal on top, if any. */
export function selectTopModal(context: ModalsContext): ModalEntry | null {
  return context.open[context.open.length - 1] ?? null;
}

/** The entry of an open modal by id (null when it is not open). */
export function selectModal(context: ModalsContext, id: string): ModalEntry | null {
  return context.open.find((m) => m.id === id) ?? null;
}
