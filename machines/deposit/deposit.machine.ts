/**
 * The deposit wizard (spec section 2: method, amount, process, complete; section 4, Deposit
 * modal; section 5 rules; section 8 texts).
 *
 * Lifecycle: spawned per flow by the app when the deposit modal opens (`flow.depositStarted`,
 * id and systemId 'deposit') and stopped when it closes (`flow.depositEnded`), so closing
 * always resets it. Steps:
 * - `method`: the account currency can be changed (`deposit.currencyChosen`); choosing a method
 *   that serves it (`deposit.methodChosen`) goes to `amount`.
 * - `amount`: `deposit.amountSubmitted` goes to `submitting` only when the amount passes the
 *   method's rules (deposit.schemas.ts), otherwise `fieldError` says why; Back -> `method`.
 * - `submitting` invokes `createDeposit` with a client_request_id made from the flow key, the
 *   request and the attempt number, so a resubmitted identical request (Back, then Continue)
 *   returns the first deposit. A failure goes to `complete.requestFailed` ("Deposit Failed!").
 *   When the server answered with a refusal (a provider failure's 502 marks that deposit
 *   failed), the attempt number goes up, so Retry asks for a NEW deposit instead of replaying
 *   the failed one; when no answer came at all (status 0: the deposit may or may not exist),
 *   the attempt stays, so Retry sends the same id and the server answers with the deposit it
 *   made, if it made one.
 * - `process` shows how to pay, by the result's integration type: `manual` (card requisites,
 *   Confirm -> `confirming` invokes `confirmDeposit`; success -> `complete.pending`, failure
 *   stays with `confirmError`), `integration` (crypto address, network, QR; confirmed by the
 *   provider) or `integrationLink` (a payment link). Back -> `amount`.
 * - A `deposit.statusUpdated` for this transaction (the app routes payment_status_update here):
 *   approved -> `complete.succeeded` and the parent is asked to re-fetch the user (balances);
 *   failed/expired/cancelled -> `complete.failed` ("Payment failed!"); processing/pending only
 *   update `paymentStatus` (the view shows a "processing" note). Updates for other
 *   transactions are ignored.
 * - A `deposit.pollingUpdated` (the app routes polling_status here), in any state: the server is
 *   watching a deposit's status with the provider, or stopped. Kept as the last one seen, since
 *   the push can arrive before the deposit's own answer; `isPollingCurrent` tells the view to show
 *   "Checking the payment status…" for the created deposit.
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import type { ApprovalStatus, DepositConfirmationResult, DepositRequestInput, DepositResult, PaymentMethod } from '../../contract/payments';
import { errorText } from '../types';
import { clientRequestId, limitsOf, methodOption, normaliseAmount, readAmount } from '../payment-methods/amounts';
import { DEPOSIT_AMOUNT_MESSAGES } from './deposit.schemas';

export interface DepositInput {
  /** A random key of this flow (the modal makes one per opening). */
  requestKey: string;
  /** The account currency to start with (the one the header shows). */
  currency: string;
}

export interface DepositContext {
  requestKey: string;
  currency: string;
  method: PaymentMethod | null;
  /** The amount as typed (kept so Back shows it again). */
  amount: string;
  /** Locale key of the amount's problem, from the last submit. */
  fieldError: string | null;
  result: DepositResult | null;
  /** The latest status of the created deposit (from the result, the confirmation or the socket). */
  paymentStatus: ApprovalStatus | null;
  /** Server text of a failed deposit request (null: the view shows its fallback). */
  error: string | null;
  /** Requests of this flow the server refused; part of the client_request_id (see submitting). */
  attempt: number;
  /** Server text of a failed confirmation (the view shows deposit.confirmed_error with it). */
  confirmError: string | null;
  /** The last polling_status seen (it may name the deposit before its answer arrives). */
  polling: { transactionId: number; polling: boolean } | null;
}

export type DepositEvent =
  | { type: 'deposit.currencyChosen'; currency: string }
  | { type: 'deposit.methodChosen'; method: PaymentMethod }
  | { type: 'deposit.amountSubmitted'; amount: string }
  | { type: 'deposit.backRequested' }
  | { type: 'deposit.confirmRequested' }
  | { type: 'deposit.retryRequested' }
  | { type: 'deposit.statusUpdated'; transactionId: number; status: ApprovalStatus }
  | { type: 'deposit.pollingUpdated'; transactionId: number; polling: boolean };

/** The app forwards it to the session, whose re-fetched user refreshes the balances. */
export type DepositParentEvent = { type: 'session.userRefreshRequested' };

export type CreateDepositInput = DepositRequestInput & { client_request_id: string };
export interface ConfirmDepositInput {
  transactionId: number;
}

const FAILED_STATUSES: readonly ApprovalStatus[] = ['failed', 'expired', 'cancelled'];

function isCurrent(context: DepositContext, transactionId: number): boolean {
  return context.result !== null && context.result.transaction_id === transactionId;
}

/** A failure without any answer from the server (the services reject with status 0 then). */
function isUnanswered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && Reflect.get(error, 'status') === 0;
}

export const depositMachine = setup({
  types: {
    context: {} as DepositContext,
    events: {} as DepositEvent,
    input: {} as DepositInput,
  },
  actors: {
    createDeposit: fromPromise<DepositResult, CreateDepositInput>(() => {
      throw new Error('depositMachine: the "createDeposit" actor has no implementation; supply it with depositMachine.provide()');
    }),
    confirmDeposit: fromPromise<DepositConfirmationResult, ConfirmDepositInput>(() => {
      throw new Error('depositMachine: the "confirmDeposit" actor has no implementation; supply it with depositMachine.provide()');
    }),
  },
  actions: {
    assignCurrency: assign(({ context, event }) => {
      assertEvent(event, 'deposit.currencyChosen');
      // A chosen method stays only if it serves the new currency; its bounds change, so the amount goes.
      const keep = context.method !== null && methodOption(context.method, event.currency, 'deposit') !== null;
      return { currency: event.currency, method: keep ? context.method : null, amount: '', fieldError: null };
    }),
    assignMethod: assign(({ context, event }) => {
      assertEvent(event, 'deposit.methodChosen');
      const same = context.method?.id === event.method.id;
      return { method: event.method, amount: same ? context.amount : '', fieldError: null };
    }),
    assignAmount: assign(({ event }) => {
      assertEvent(event, 'deposit.amountSubmitted');
      return { amount: normaliseAmount(event.amount), fieldError: null, error: null };
    }),
    assignAmountError: assign(({ context, event }) => {
      assertEvent(event, 'deposit.amountSubmitted');
      const option = context.method ? methodOption(context.method, context.currency, 'deposit') : null;
      const read = option ? readAmount(event.amount, limitsOf(option)) : ({ problem: 'invalid' } as const);
      return { amount: event.amount, fieldError: 'problem' in read ? DEPOSIT_AMOUNT_MESSAGES[read.problem] : null };
    }),
    assignResult: assign((_, output: DepositResult) => ({ result: output, paymentStatus: output.status, confirmError: null })),
    assignRequestError: assign((_, params: { message: string | null }) => ({ error: params.message })),
    assignConfirmed: assign((_, output: DepositConfirmationResult) => ({ paymentStatus: output.transaction.approval_status, confirmError: null })),
    assignConfirmError: assign((_, params: { message: string | null }) => ({ confirmError: params.message ?? '' })),
    clearConfirmError: assign({ confirmError: null }),
    startNewAttempt: assign(({ context }) => ({ attempt: context.attempt + 1 })),
    clearResult: assign({ result: null, paymentStatus: null, confirmError: null }),
    assignStatus: assign(({ event }) => {
      assertEvent(event, 'deposit.statusUpdated');
      return { paymentStatus: event.status };
    }),
    assignPolling: assign(({ event }) => {
      assertEvent(event, 'deposit.pollingUpdated');
      return { polling: { transactionId: event.transactionId, polling: event.polling } };
    }),
    requestBalanceRefresh: sendParent((): DepositParentEvent => ({ type: 'session.userRefreshRequested' })),
  },
  guards: {
    isMethodUsable: ({ context, event }) => {
      assertEvent(event, 'deposit.methodChosen');
      return methodOption(event.method, context.currency, 'deposit') !== null;
    },
    isAmountValid: ({ context, event }) => {
      assertEvent(event, 'deposit.amountSubmitted');
      const option = context.method ? methodOption(context.method, context.currency, 'deposit') : null;
      return option !== null && 'minor' in readAmount(event.amount, limitsOf(option));
    },
    isResultApproved: ({ context }) => context.result?.status === 'approved',
    isResultFailed: ({ context }) => context.result !== null && FAILED_STATUSES.includes(context.result.status),
    isManual: ({ context }) => context.result?.integration_type === 'manual',
    isCryptoAddress: ({ context }) => context.result?.integration_type === 'crypto_address',
    isCurrentApproved: ({ context, event }) => {
      assertEvent(event, 'deposit.statusUpdated');
      return isCurrent(context, event.transactionId) && event.status === 'approved';
    },
    isCurrentFailed: ({ context, event }) => {
      assertEvent(event, 'deposit.statusUpdated');
      return isCurrent(context, event.transactionId) && FAILED_STATUSES.includes(event.status);
    },
    isCurrentTransaction: ({ context, event }) => {
      assertEvent(event, 'deposit.statusUpdated');
      return isCurrent(context, event.transactionId);
    },
    isUnanswered: (_, params: { error: unknown }) => isUnanswered(params.error),
  },
}).createMachine({
  id: 'deposit',
  context: ({ input }) => ({
    requestKey: input.requestKey,
    currency: input.currency,
    method: null,
    amount: '',
    fieldError: null,
    result: null,
    paymentStatus: null,
    error: null,
    confirmError: null,
    attempt: 0,
    polling: null,
  }),
  on: {
    'deposit.pollingUpdated': { actions: 'assignPolling', description: 'The server watches a deposit\'s status (polling_status), or stopped.' },
  },
  initial: 'method',
  states: {
    method: {
      on: {
        'deposit.currencyChosen': { actions: 'assignCurrency' },
        'deposit.methodChosen': {
          guard: 'isMethodUsable',
          target: 'amount',
          description: 'Only a method that takes deposits in the chosen currency.',
          actions: 'assignMethod',
        },
      },
    },
    amount: {
      on: {
        'deposit.amountSubmitted': [
          { guard: 'isAmountValid', target: 'submitting', actions: 'assignAmount' },
          { actions: 'assignAmountError', description: 'Stays with the amount problem as a locale key.' },
        ],
        'deposit.backRequested': 'method',
      },
    },
    submitting: {
      invoke: {
        id: 'createDeposit',
        src: 'createDeposit',
        input: ({ context }): CreateDepositInput => {
          const method = context.method!;
          return {
            amount: context.amount,
            currency: context.currency,
            account_type: 'real',
            payment_system: method.name,
            payment_method_id: method.id,
            client_request_id: clientRequestId('d', context.requestKey, [method.id, context.currency, context.amount, String(context.attempt)]),
          };
        },
        onDone: { target: 'process', actions: { type: 'assignResult', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'isUnanswered', params: ({ event }) => ({ error: event.error }) },
            target: 'complete.requestFailed',
            description: 'No answer: the deposit may exist, so Retry sends the same client_request_id.',
            actions: { type: 'assignRequestError', params: ({ event }) => ({ message: errorText(event.error) }) },
          },
          {
            target: 'complete.requestFailed',
            description: 'Refused: Retry is a new attempt with a new client_request_id.',
            actions: [{ type: 'assignRequestError', params: ({ event }) => ({ message: errorText(event.error) }) }, 'startNewAttempt'],
          },
        ],
      },
    },
    process: {
      initial: 'routing',
      on: {
        'deposit.backRequested': { target: 'amount', actions: 'clearResult' },
        'deposit.statusUpdated': [
          { guard: 'isCurrentApproved', target: 'complete.succeeded', actions: ['assignStatus', 'requestBalanceRefresh'] },
          { guard: 'isCurrentFailed', target: 'complete.failed', actions: 'assignStatus' },
          { guard: 'isCurrentTransaction', actions: 'assignStatus', description: 'pending or processing: keep waiting.' },
        ],
      },
      states: {
        routing: {
          description: 'Which way to pay; a replayed request may already be final.',
          always: [
            { guard: 'isResultApproved', target: '#deposit.complete.succeeded' },
            { guard: 'isResultFailed', target: '#deposit.complete.failed' },
            { guard: 'isManual', target: 'manual' },
            { guard: 'isCryptoAddress', target: 'integration' },
            { target: 'integrationLink' },
          ],
        },
        manual: {
          initial: 'awaitingConfirmation',
          states: {
            awaitingConfirmation: {
              description: 'Card requisites shown; the payer confirms after paying.',
              on: { 'deposit.confirmRequested': { target: 'confirming', actions: 'clearConfirmError' } },
            },
            confirming: {
              on: {
                'deposit.backRequested': { description: 'Not while the confirmation is on its way.' },
              },
              invoke: {
                id: 'confirmDeposit',
                src: 'confirmDeposit',
                input: ({ context }) => ({ transactionId: context.result!.transaction_id }),
                onDone: { target: '#deposit.complete.pending', actions: { type: 'assignConfirmed', params: ({ event }) => event.output } },
                onError: {
                  target: 'awaitingConfirmation',
                  actions: { type: 'assignConfirmError', params: ({ event }) => ({ message: errorText(event.error) }) },
                },
              },
            },
          },
        },
        integration: {
          description: 'Crypto address, network and QR code; the provider confirms on its own.',
        },
        integrationLink: {
          description: 'A payment link to open and copy; the provider confirms on its own.',
        },
      },
    },
    complete: {
      description: 'Always entered at a named outcome; pending is the first only for the config.',
      initial: 'pending',
      states: {
        pending: {
          description: 'The payer confirmed; waiting for the operator or the provider.',
          on: {
            'deposit.statusUpdated': [
              { guard: 'isCurrentApproved', target: 'succeeded', actions: ['assignStatus', 'requestBalanceRefresh'] },
              { guard: 'isCurrentFailed', target: 'failed', actions: 'assignStatus' },
              { guard: 'isCurrentTransaction', actions: 'assignStatus' },
            ],
          },
        },
        succeeded: {},
        failed: { description: 'Payment failed!' },
        requestFailed: {
          description: 'Deposit Failed! The request itself was refused or never answered.',
          on: { 'deposit.retryRequested': '#deposit.amount' },
        },
      },
    },
  },
});


/** Whether the server is checking the created deposit's status with the provider right now. */
export function isPollingCurrent(context: DepositContext): boolean {
  return context.polling !== null && context.polling.polling && isCurrent(context, context.polling.transactionId);
}

/** The process display mode of a state value (null outside `process`). */
export function depositProcessMode(value: unknown): 'manual' | 'integration' | 'integrationLink' | null {
  if (typeof value !== 'object' || value === null || !('process' in value)) return null;
  const process: unknown = Reflect.get(value, 'process');
  if (process === 'integration' || process === 'integrationLink') return process;
  if (typeof process === 'object' && process !== null && 'manual' in process) return 'manual';
  return null;
}
