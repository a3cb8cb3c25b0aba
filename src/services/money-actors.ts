/**
 * The real implementations of the money machines' actors: deposit (sent once more, with the
 * same client_request_id, when it got no answer), deposit confirmation and withdrawal through
 * money-api.ts, the history list, and the CSV export, which downloads the
 * file in the browser (Blob -> object URL -> a temporary download link). The payment-method
 * catalogue needs none: it comes over the socket through the app machine.
 *
 *   createImplementations(deps) spreads moneyImplementations(deps) into the app's actors.
 */
import { fromPromise } from 'xstate';
import type { DepositConfirmationResult, DepositResult, WithdrawalResult } from '../../contract/payments';
import { depositMachine, type ConfirmDepositInput, type CreateDepositInput } from '../../machines/deposit/deposit.machine';
import { withdrawMachine, type CreateWithdrawalInput } from '../../machines/withdraw/withdraw.machine';
import {
  transactionsMachine,
  type ExportTransactionsInput,
  type FetchTransactionsInput,
  type TransactionListOutput,
} from '../../machines/transactions/transactions.machine';
import { paymentMethodsMachine } from '../../machines/payment-methods/payment-methods.machine';
import type { HttpClient } from './http';
import { createMoneyApi } from './money-api';
import { retryOnce } from './retry';
import { RETRY_DELAY_MS } from '../../machines/retry-policy';

export interface MoneyDeps {
  http: HttpClient;
  window: Window | null;
  /**
   * Pause before a deposit request that got no verdict is sent once more, unchanged (retryOnce,
   * machines/retry-policy.ts): it carries its client_request_id, so the server answers a repeat
   * with the deposit the first try may have created. A refusal is not retried here; the deposit
   * machine makes Retry a new attempt with a new id then.
   */
  retryDelayMs?: number;
}


/** The export's file name: transactions-YYYY-MM-DD.csv (local date). */
export function exportFileName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `transactions-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

/** Saves a Blob as a file through a temporary link; the object URL is released afterwards. */
export function downloadBlob(win: Window | null, blob: Blob, fileName: string): void {
  if (!win) throw new Error('Download needs a browser window');
  const url = URL.createObjectURL(blob);
  const link = win.document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  win.document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Some browsers read the URL after click() returns.
    win.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

export function moneyImplementations(deps: MoneyDeps) {
  const money = createMoneyApi(deps.http);
  const retryDelay = deps.retryDelayMs ?? RETRY_DELAY_MS;
  return {
    paymentMethods: paymentMethodsMachine,
    deposit: depositMachine.provide({
      actors: {
        createDeposit: fromPromise<DepositResult, CreateDepositInput>(({ input }) => retryOnce(() => money.createDeposit(input), retryDelay)),
        confirmDeposit: fromPromise<DepositConfirmationResult, ConfirmDepositInput>(({ input }) => money.confirmDeposit(input.transactionId)),
      },
    }),
    withdraw: withdrawMachine.provide({
      actors: {
        createWithdrawal: fromPromise<WithdrawalResult, CreateWithdrawalInput>(({ input }) => money.createWithdrawal(input)),
      },
    }),
    transactions: transactionsMachine.provide({
      actors: {
        fetchTransactions: fromPromise<TransactionListOutput, FetchTransactionsInput>(({ input }) => money.listTransactions(input.query)),
        exportTransactions: fromPromise<void, ExportTransactionsInput>(async ({ input }) => {
          const blob = await money.exportTransactions(input.query);
          downloadBlob(deps.window, blob, exportFileName(new Date()));
        }),
      },
    }),
  };
}
