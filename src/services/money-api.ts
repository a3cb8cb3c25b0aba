/**
 * The REST calls of money (spec section 7, Money; docs/api.md "Money"): create a deposit,
 * confirm a manual deposit, create a withdrawal, list the transaction history and export it as
 * CSV. Each answer gets the client-side check of spec section 5 (confirm-deposit needs its
 * status flag, the list needs success) and is read with the contract's schema; a failure
 * carries the server's text or the section 8 fallback ("Failed to create deposit", "Failed to
 * confirm deposit", "Failed to create withdrawal", "Failed to get transactions").
 *
 * The history's dates are calendar days of the browser's time zone (what the list shows), so
 * they are sent as that day's bounds in unix seconds rather than as a UTC day.
 */
import * as v from 'valibot';
import {
  DepositConfirmationResultSchema,
  DepositResultSchema,
  TransactionListResultSchema,
  WithdrawalResultSchema,
  type DepositConfirmationResult,
  type DepositResult,
  type TransactionListResult,
  type WithdrawalResult,
} from '../../contract/payments';
import type { CreateDepositInput } from '../../machines/deposit/deposit.machine';
import type { CreateWithdrawalInput } from '../../machines/withdraw/withdraw.machine';
import type { TransactionQuery } from '../../machines/transactions/transactions.machine';
import { ApiError, type HttpClient } from './http';
import { apiClient, checked, field as get, unexpected } from './api-client';

export const MONEY_FALLBACK = {
  createDeposit: 'Failed to create deposit',
  confirmDeposit: 'Failed to confirm deposit',
  createWithdrawal: 'Failed to create withdrawal',
  transactions: 'Failed to get transactions',
} as const;

/** Unix seconds of the start (or the last second) of a YYYY-MM-DD day in the browser's time zone. */
export function localDayBound(day: string, end: boolean): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = end ? new Date(y, mo, d, 23, 59, 59) : new Date(y, mo, d, 0, 0, 0);
  if (date.getFullYear() !== y || date.getMonth() !== mo || date.getDate() !== d) return null;
  return Math.floor(date.getTime() / 1000);
}

/** The query string of the list and the export: 'all' never appears, days become local bounds. */
export function transactionSearch(query: TransactionQuery): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (query.page !== undefined) out.page = query.page;
  if (query.limit !== undefined) out.limit = query.limit;
  if (query.type) out.type = query.type;
  if (query.status) out.status = query.status;
  if (query.account) out.account = query.account;
  const from = query.date_from ? localDayBound(query.date_from, false) : null;
  const to = query.date_to ? localDayBound(query.date_to, true) : null;
  if (from !== null) out.date_from = from;
  if (to !== null) out.date_to = to;
  return out;
}

export function createMoneyApi(http: HttpClient) {
  const { call } = apiClient(http);
  const read = <S extends v.GenericSchema>(fallback: string, schema: S, body: unknown): v.InferOutput<S> => checked(schema, fallback, get(body, 'data'), body);

  return {
    /**
     * POST /api/v2/transactions/deposit (a replayed client_request_id answers the first deposit).
     * A server-side failure (5xx: the provider could not open the payment, which the server
     * answers with 502, or a gateway error) always reads "Failed to create deposit", whatever
     * text came with it; the status is kept.
     */
    async createDeposit(body: CreateDepositInput): Promise<DepositResult> {
      let answer: unknown;
      try {
        answer = await call(MONEY_FALLBACK.createDeposit, '/api/v2/transactions/deposit', { method: 'POST', body });
      } catch (error) {
        if (error instanceof ApiError && error.status >= 500) {
          throw new ApiError(error.status, MONEY_FALLBACK.createDeposit, { serverMessage: null, details: error.details, body: error.body });
        }
        throw error;
      }
      return read(MONEY_FALLBACK.createDeposit, DepositResultSchema, answer);
    },

    /** POST /api/v2/payments/deposit/confirmation: needs the status flag (spec section 5). */
    async confirmDeposit(transactionId: number): Promise<DepositConfirmationResult> {
      const answer = await call(MONEY_FALLBACK.confirmDeposit, '/api/v2/payments/deposit/confirmation', {
        method: 'POST',
        body: { transaction_id: transactionId },
      });
      if (get(get(answer, 'data'), 'status') !== true) throw unexpected(MONEY_FALLBACK.confirmDeposit, answer);
      return read(MONEY_FALLBACK.confirmDeposit, DepositConfirmationResultSchema, answer);
    },

    /** POST /api/v2/transactions/withdrawal (the amount is held at once). */
    async createWithdrawal(body: CreateWithdrawalInput): Promise<WithdrawalResult> {
      const answer = await call(MONEY_FALLBACK.createWithdrawal, '/api/v2/transactions/withdrawal', { method: 'POST', body });
      return read(MONEY_FALLBACK.createWithdrawal, WithdrawalResultSchema, answer);
    },

    /** GET /api/v2/transactions: needs success (spec section 5). */
    async listTransactions(query: TransactionQuery): Promise<TransactionListResult> {
      const answer = await call(MONEY_FALLBACK.transactions, '/api/v2/transactions', { method: 'GET', query: transactionSearch(query) });
      if (get(answer, 'success') !== true) throw unexpected(MONEY_FALLBACK.transactions, answer);
      return read(MONEY_FALLBACK.transactions, TransactionListResultSchema, answer);
    },

    /** GET /api/v2/transactions/export.csv with the list's filters, as a CSV Blob. */
    async exportTransactions(query: TransactionQuery): Promise<Blob> {
      const { page: _page, limit: _limit, ...filters } = query;
      const answer = await call(MONEY_FALLBACK.transactions, '/api/v2/transactions/export.csv', { method: 'GET', query: transactionSearch(filters) });
      if (typeof answer !== 'string') throw unexpected(MONEY_FALLBACK.transactions, answer);
      // The byte order mark makes spreadsheet programs read the file as UTF-8.
      return new Blob(['\ufeff', answer], { type: 'text/csv;charset=utf-8' });
    },
  };
}

export type MoneyApi = ReturnType<typeof createMoneyApi>;
