/**
 * The withdraw wizard (spec section 2: method, details, completion; section 4, Withdraw modal;
 * section 5 rules; section 8 texts). Withdrawals come only from the real account, and the
 * payment link (oxapay_link) is never offered for them.
 *
 * Lifecycle: spawned per flow by the app when the withdraw modal opens (`flow.withdrawStarted`,
 * id and systemId 'withdraw') and stopped when it closes (`flow.withdrawEnded`): closing resets
 * the form. Steps:
 * - `method`: the currency can be changed (`withdraw.currencyChosen`); choosing a method that
 *   pays out in it (`withdraw.methodChosen`) goes to `details`.
 * - `details`: `withdraw.submitted {amount, requisites}` goes to `submitting` only when both
 *   pass withdraw.schemas.ts, with the amount at most the real balance of the currency (kept
 *   current by `withdraw.balancesReceived`) and, for a card method, the requisites a valid card
 *   number; otherwise `fieldErrors` say why. Back -> `method`.
 * - `submitting` invokes `createWithdrawal` (client_request_id from the flow key and the
 *   request, so a resubmitted identical request is not held twice). Success -> `completion`,
 *   a success toast (withdraw.success_message) and a balance refresh; failure -> back to
 *   `details` with the server's text in `error` (the view falls back to withdraw.error_message).
 * - `completion` shows the result: done (approved), failed (contact support) or pending
 *   (waiting for the payment provider, with estimated_processing_time); a
 *   `withdraw.statusUpdated` for this withdrawal updates it live.
 */
import { assertEvent, assign, fromPromise, sendParent, setup } from 'xstate';
import { toMinor } from '../../contract/money';
import type { Balances } from '../../contract/user';
import type { ApprovalStatus, PaymentMethod, WithdrawalRequestInput, WithdrawalResult } from '../../contract/payments';
import { errorText, type ToastRequest } from '../types';
import { clientRequestId, limitsOf, methodOption, normaliseAmount, readAmount, type AmountLimits } from '../payment-methods/amounts';
import { requisitesProblem, WITHDRAW_AMOUNT_MESSAGES } from './withdraw.schemas';

export interface WithdrawInput {
  /** A random key of this flow (the modal makes one per opening). */
  requestKey: string;
  currency: string;
  /** The balances when the flow starts (the real one limits the amount). */
  balances: Balances;
}

export interface WithdrawFieldErrors {
  amount: string | null;
  requisites: string | null;
}

export interface WithdrawContext {
  requestKey: string;
  currency: string;
  method: PaymentMethod | null;
  amount: string;
  requisites: string;
  /** Locale keys from the last submit. */
  fieldErrors: WithdrawFieldErrors;
  balances: Balances;
  result: WithdrawalResult | null;
  /** Server text of a refused request (null: the view shows withdraw.error_message). */
  error: string | null;
}

export type WithdrawEvent =
  | { type: 'withdraw.currencyChosen'; currency: string }
  | { type: 'withdraw.methodChosen'; method: PaymentMethod }
  | { type: 'withdraw.submitted'; amount: string; requisites: string }
  | { type: 'withdraw.backRequested' }
  | { type: 'withdraw.balancesReceived'; balances: Balances }
  | { type: 'withdraw.statusUpdated'; transactionId: number; status: ApprovalStatus };

export type WithdrawParentEvent = { type: 'toast.requested'; toast: ToastRequest } | { type: 'session.userRefreshRequested' };

export type CreateWithdrawalInput = WithdrawalRequestInput & { client_request_id: string };

const NO_ERRORS: WithdrawFieldErrors = { amount: null, requisites: null };

/** The real balance of a currency in minor units (0 when there is none). */
export function availableMinor(balances: Balances, currency: string, decimals: number): number {
  const amount = balances[currency]?.RealBalance ?? 0;
  return toMinor(amount, decimals) ?? 0;
}

/** The amount limits of the chosen method for this context, or null without a usable method. */
export function withdrawLimits(context: Pick<WithdrawContext, 'method' | 'currency' | 'balances'>): AmountLimits | null {
  const option = context.method ? methodOption(context.method, context.currency, 'withdrawal') : null;
  if (!option) return null;
  return limitsOf(option, availableMinor(context.balances, context.currency, option.currency.decimals));
}

function problems(context: WithdrawContext, amount: string, requisites: string): WithdrawFieldErrors {
  const limits = withdrawLimits(context);
  const read = limits ? readAmount(amount, limits) : ({ problem: 'invalid' } as const);
  return {
    amount: 'problem' in read ? WITHDRAW_AMOUNT_MESSAGES[read.problem] : null,
    requisites: requisitesProblem(requisites, context.method),
  };
}

export const withdrawMachine = setup({
  types: {
    context: {} as WithdrawContext,
    events: {} as WithdrawEvent,
    input: {} as WithdrawInput,
  },
  actors: {
    createWithdrawal: fromPromise<WithdrawalResult, CreateWithdrawalInput>(() => {
      throw new Error('withdrawMachine: the "createWithdrawal" actor has no implementation; supply it with withdrawMachine.provide()');
    }),
  },
  actions: {
    assignCurrency: assign(({ context, event }) => {
      assertEvent(event, 'withdraw.currencyChosen');
      const keep = context.method !== null && methodOption(context.method, event.currency, 'withdrawal') !== null;
      return { currency: event.currency, method: keep ? context.method : null, amount: '', fieldErrors: NO_ERRORS, error: null };
    }),
    assignMethod: assign(({ context, event }) => {
      assertEvent(event, 'withdraw.methodChosen');
      const same = context.method?.id === event.method.id;
      return { method: event.method, amount: same ? context.amount : '', fieldErrors: NO_ERRORS, error: null };
    }),
    assignDetails: assign(({ event }) => {
      assertEvent(event, 'withdraw.submitted');
      return { amount: normaliseAmount(event.amount), requisites: event.requisites.trim(), fieldErrors: NO_ERRORS, error: null };
    }),
    assignDetailErrors: assign(({ context, event }) => {
      assertEvent(event, 'withdraw.submitted');
      return { amount: event.amount, requisites: event.requisites, fieldErrors: problems(context, event.amount, event.requisites) };
    }),
    assignBalances: assign(({ event }) => {
      assertEvent(event, 'withdraw.balancesReceived');
      return { balances: event.balances };
    }),
    assignResult: assign((_, output: WithdrawalResult) => ({ result: output, error: null })),
    assignError: assign((_, params: { message: string | null }) => ({ error: params.message })),
    assignStatus: assign(({ context, event }) => {
      assertEvent(event, 'withdraw.statusUpdated');
      return { result: context.result ? { ...context.result, status: event.status } : null };
    }),
    toastSuccess: sendParent(
      (): WithdrawParentEvent => ({ type: 'toast.requested', toast: { type: 'success', messageKey: 'withdraw.success_message' } }),
    ),
    requestBalanceRefresh: sendParent((): WithdrawParentEvent => ({ type: 'session.userRefreshRequested' })),
  },
  guards: {
    isMethodUsable: ({ context, event }) => {
      assertEvent(event, 'withdraw.methodChosen');
      return methodOption(event.method, context.currency, 'withdrawal') !== null;
    },
    isDetailsValid: ({ context, event }) => {
      assertEvent(event, 'withdraw.submitted');
      const found = problems(context, event.amount, event.requisites);
      return found.amount === null && found.requisites === null;
    },
    isCurrentTransaction: ({ context, event }) => {
      assertEvent(event, 'withdraw.statusUpdated');
      return context.result !== null && context.result.transaction_id === event.transactionId;
    },
  },
}).createMachine({
  id: 'withdraw',
  context: ({ input }) => ({
    requestKey: input.requestKey,
    currency: input.currency,
    method: null,
    amount: '',
    requisites: '',
    fieldErrors: NO_ERRORS,
    balances: input.balances,
    result: null,
    error: null,
  }),
  initial: 'method',
  on: {
    'withdraw.balancesReceived': { actions: 'assignBalances' },
  },
  states: {
    method: {
      on: {
        'withdraw.currencyChosen': { actions: 'assignCurrency' },
        'withdraw.methodChosen': {
          guard: 'isMethodUsable',
          target: 'details',
          description: 'Only an active method that pays out in the chosen currency (never the payment link).',
          actions: 'assignMethod',
        },
      },
    },
    details: {
      on: {
        'withdraw.submitted': [
          { guard: 'isDetailsValid', target: 'submitting', actions: 'assignDetails' },
          { actions: 'assignDetailErrors', description: 'Stays with the problems as locale keys.' },
        ],
        'withdraw.backRequested': 'method',
      },
    },
    submitting: {
      invoke: {
        id: 'createWithdrawal',
        src: 'createWithdrawal',
        input: ({ context }): CreateWithdrawalInput => {
          const method = context.method!;
          return {
            amount: context.amount,
            currency: context.currency,
            payment_method_id: method.id,
            account_type: 'real',
            payment_system: method.name,
            payment_details: { requisites: context.requisites, payment_method: method.name },
            client_request_id: clientRequestId('w', context.requestKey, [method.id, context.currency, context.amount, context.requisites]),
          };
        },
        onDone: {
          target: 'completion',
          actions: [{ type: 'assignResult', params: ({ event }) => event.output }, 'toastSuccess', 'requestBalanceRefresh'],
        },
        onError: {
          target: 'details',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorText(event.error) }) },
        },
      },
    },
    completion: {
      description: 'done, failed (contact support) or pending (waiting for the payment provider).',
      on: {
        'withdraw.statusUpdated': { guard: 'isCurrentTransaction', actions: 'assignStatus' },
      },
    },
  },
});


/** What the completion step says for a withdrawal status. */
export function withdrawOutcome(status: ApprovalStatus): 'done' | 'failed' | 'pending' {
  if (status === 'approved') return 'done';
  if (status === 'failed' || status === 'expired' || status === 'cancelled') return 'failed';
  return 'pending';
}
