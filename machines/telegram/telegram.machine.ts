/**
 * Telegram linking of the profile screen.
 *
 * Lifecycle: spawned with the profile screen (by the profilePage flow, systemId 'telegram'),
 * stopped when it closes. `loading` reads GET /api/v2/telegram/link and goes to `linked`,
 * `awaitingBot` (a code is still waiting for the bot) or `unlinked`; a failure waits in
 * `failed` for `telegram.retryRequested`.
 * - `unlinked` -(telegram.linkRequested)-> `creatingLink` (POST /api/v2/telegram/link: a one-time
 *   code and the bot's deep link) -> `awaitingBot`.
 * - `awaitingBot` shows the deep link and the code and checks the status every `pollInterval`
 *   (or at once on `telegram.checkRequested`): linked -> `linked` with a toast; the code gone
 *   (expired) -> `unlinked` saying "Link code expired"; a failed check keeps waiting.
 *   `telegram.linkRequested` asks for a fresh code, `telegram.linkCancelled` stops waiting.
 * - `linked` -(telegram.unlinkRequested)-> `confirmingUnlink` -(unlinkConfirmed)-> `unlinking`
 *   (POST /api/v2/telegram/unlink) -> `unlinked` with a toast, or back to `confirmingUnlink`
 *   with the error (the dialog stays open). Failures of link and unlink fall back to "Telegram
 *   connection and disconnection failed".
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import type { TelegramLinkCode, TelegramStatus } from '../../contract/profile';
import type { ToastRequest } from '../types';
import { failureText, PROFILE_FALLBACKS } from '../profile/feedback';

/** How often a waiting link asks whether the bot has seen the code. */
export const TELEGRAM_POLL_MS = 3000;

export interface TelegramContext {
  status: TelegramStatus | null;
  /** The code and deep link being waited for. */
  link: TelegramLinkCode | null;
  error: string | null;
}

export type TelegramEvent =
  | { type: 'telegram.retryRequested' }
  | { type: 'telegram.linkRequested' }
  | { type: 'telegram.linkCancelled' }
  | { type: 'telegram.checkRequested' }
  | { type: 'telegram.unlinkRequested' }
  | { type: 'telegram.unlinkConfirmed' }
  | { type: 'telegram.unlinkCancelled' };

export type TelegramParentEvent = { type: 'toast.requested'; toast: ToastRequest };

function missing(name: string): never {
  throw new Error(`telegramMachine: the "${name}" actor has no implementation; supply it with telegramMachine.provide()`);
}

/** The code a status still waits for, as a link to show. */
function pendingLink(status: TelegramStatus): TelegramLinkCode | null {
  if (status.linked || !status.pending_code || !status.deep_link || status.expires_at === null) return null;
  return { code: status.pending_code, deep_link: status.deep_link, expires_at: status.expires_at };
}

export const telegramMachine = setup({
  types: {
    context: {} as TelegramContext,
    events: {} as TelegramEvent,
  },
  actors: {
    loadTelegramStatus: fromPromise<TelegramStatus, void>(() => missing('loadTelegramStatus')),
    createTelegramLink: fromPromise<TelegramLinkCode, void>(() => missing('createTelegramLink')),
    unlinkTelegram: fromPromise<TelegramStatus, void>(() => missing('unlinkTelegram')),
  },
  delays: {
    pollInterval: TELEGRAM_POLL_MS,
  },
  guards: {
    isLinked: (_, params: { status: TelegramStatus }) => params.status.linked,
    hasPendingCode: (_, params: { status: TelegramStatus }) => pendingLink(params.status) !== null,
  },
  actions: {
    assignStatus: assign((_, status: TelegramStatus) => ({ status, link: pendingLink(status), error: null })),
    assignLink: assign((_, link: TelegramLinkCode) => ({ link, error: null })),
    clearLink: assign({ link: null, error: null }),
    clearError: assign({ error: null }),
    assignExpired: assign((_, status: TelegramStatus) => ({ status, link: null, error: 'profile.telegram.code_expired' })),
    assignError: assign((_, params: { error: unknown; fallback: string }) => ({ error: failureText(params.error, params.fallback) })),
    toast: sendParent((_, params: { toast: ToastRequest }): TelegramParentEvent => ({ type: 'toast.requested', toast: params.toast })),
  },
}).createMachine({
  id: 'telegram',
  context: { status: null, link: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadTelegramStatus',
        src: 'loadTelegramStatus',
        onDone: [
          { guard: { type: 'isLinked', params: ({ event }) => ({ status: event.output }) }, target: 'linked', actions: { type: 'assignStatus', params: ({ event }) => event.output } },
          {
            guard: { type: 'hasPendingCode', params: ({ event }) => ({ status: event.output }) },
            target: 'awaitingBot',
            actions: { type: 'assignStatus', params: ({ event }) => event.output },
          },
          { target: 'unlinked', actions: { type: 'assignStatus', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'assignError', params: ({ event }) => ({ error: event.error, fallback: PROFILE_FALLBACKS.telegram }) },
        },
      },
    },
    failed: {
      on: { 'telegram.retryRequested': { target: 'loading', actions: 'clearError' } },
    },
    unlinked: {
      on: { 'telegram.linkRequested': { target: 'creatingLink', actions: 'clearError' } },
    },
    creatingLink: {
      invoke: {
        id: 'createTelegramLink',
        src: 'createTelegramLink',
        onDone: { target: 'awaitingBot', actions: { type: 'assignLink', params: ({ event }) => event.output } },
        onError: {
          target: 'unlinked',
          actions: { type: 'assignError', params: ({ event }) => ({ error: event.error, fallback: PROFILE_FALLBACKS.telegram }) },
        },
      },
    },
    awaitingBot: {
      description: 'The user opens the deep link and presses Start in Telegram; the bot completes the link.',
      initial: 'waiting',
      on: {
        'telegram.linkRequested': { target: 'creatingLink', description: 'A fresh code replaces the one shown.' },
        'telegram.linkCancelled': { target: 'unlinked', actions: 'clearLink' },
      },
      states: {
        waiting: {
          after: { pollInterval: 'checking' },
          on: { 'telegram.checkRequested': 'checking' },
        },
        checking: {
          invoke: {
            id: 'checkTelegramStatus',
            src: 'loadTelegramStatus',
            onDone: [
              {
                guard: { type: 'isLinked', params: ({ event }) => ({ status: event.output }) },
                target: '#telegram.linked',
                actions: [
                  { type: 'assignStatus', params: ({ event }) => event.output },
                  { type: 'toast', params: { toast: { type: 'success', messageKey: 'profile.telegram.linked_toast' } } },
                ],
              },
              {
                guard: { type: 'hasPendingCode', params: ({ event }) => ({ status: event.output }) },
                target: 'waiting',
                actions: { type: 'assignStatus', params: ({ event }) => event.output },
              },
              {
                target: '#telegram.unlinked',
                description: 'The code is no longer waiting: it expired.',
                actions: { type: 'assignExpired', params: ({ event }) => event.output },
              },
            ],
            onError: { target: 'waiting', description: 'A failed check (offline) just waits for the next one.' },
          },
        },
      },
    },
    linked: {
      on: { 'telegram.unlinkRequested': { target: 'confirmingUnlink', actions: 'clearError' } },
    },
    confirmingUnlink: {
      on: {
        'telegram.unlinkConfirmed': { target: 'unlinking', actions: 'clearError' },
        'telegram.unlinkCancelled': { target: 'linked', actions: 'clearError' },
      },
    },
    unlinking: {
      invoke: {
        id: 'unlinkTelegram',
        src: 'unlinkTelegram',
        onDone: {
          target: 'unlinked',
          actions: [
            { type: 'assignStatus', params: ({ event }) => event.output },
            { type: 'toast', params: { toast: { type: 'success', messageKey: 'profile.telegram.unlinked_toast' } } },
          ],
        },
        onError: {
          target: 'confirmingUnlink',
          actions: { type: 'assignError', params: ({ event }) => ({ error: event.error, fallback: PROFILE_FALLBACKS.telegram }) },
        },
      },
    },
  },
});
