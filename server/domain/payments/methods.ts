/**
 * The payment-method catalogue: the seed (written into payment_methods on start, only rows
 * that are missing, so an operator's edits in the table survive restarts), the filtered list
 * for the deposit/withdraw modals (one method by id: repository.ts findPaymentMethod).
 *
 * available_sums: a method that serves one currency keeps its min/max in that currency; an
 * ALL-currency method keeps them in USD and they are converted to the chosen currency at the
 * market's rates (contract/payments.ts sumsInMinor: min rounded up, max down, as round figures;
 * docs/money.md "Exchange rates").
 */
import { findCurrency, type RateTable } from '../../../contract/currencies';
import { fromMinor, toMinor } from '../../../contract/money';
import {
  PaymentMethodName,
  ProcessingTimeText,
  SUMS_BASE_CURRENCY,
  methodSupportsCurrency,
  sumsInMinor,
  type IntegrationType,
  type PaymentCategory,
  type PaymentMethod,
  type Requisit,
} from '../../../contract/payments';
import type { Trx } from '../../db';
import { decimalsOf, type PaymentMethodRow } from './wire';
import { isSandboxMethod, methodOffered, type PaymentsMode } from './mode';
import { activePaymentMethods, insertPaymentMethod, paymentMethodIds } from './repository';

interface SeedMethod {
  id: string;
  name: string;
  avatar_url: string;
  category: PaymentCategory;
  country_code: string;
  currency_code: string;
  integration_type: IntegrationType;
  /** Decimal bounds in sums_currency. */
  sums: { min: string; max: string; currency: string };
  payment_currency: string | null;
  crypto_network: string | null;
  requisites: Requisit | null;
  estimated_processing_time: string;
  withdraw_enabled: boolean;
}

/**
 * The methods a fresh database starts with (names and processing times from the contract's
 * catalogues, which the SPA translates). The requisites are the platform's receiving
 * details shown to a payer of a manual deposit; an operator replaces them in payment_methods.
 */
const SANDBOX_AND_MANUAL_METHODS: readonly SeedMethod[] = [
  {
    id: 'card_visa_mastercard',
    name: PaymentMethodName.card,
    avatar_url: 'visa_mastercard.svg',
    category: 'cards',
    country_code: 'ALL',
    currency_code: 'ALL',
    integration_type: 'manual',
    sums: { min: '10', max: '5000', currency: SUMS_BASE_CURRENCY },
    payment_currency: null,
    crypto_network: null,
    requisites: { card_number: '4000 0012 3456 7899', cardholder_name: 'TRADETERMINAL LTD' },
    estimated_processing_time: ProcessingTimeText.withinDay,
    withdraw_enabled: true,
  },
  {
    id: 'bank_transfer_sepa',
    name: PaymentMethodName.bankTransfer,
    avatar_url: 'bank_transfer.svg',
    category: 'bank',
    country_code: 'ALL',
    currency_code: 'EUR',
    integration_type: 'manual',
    sums: { min: '50', max: '20000', currency: 'EUR' },
    payment_currency: null,
    crypto_network: null,
    requisites: {
      card_number: null,
      cardholder_name: null,
      iban: 'DE89 3704 0044 0532 0130 00',
      bank_name: 'Commerzbank AG',
      beneficiary: 'TradeTerminal Ltd',
    },
    estimated_processing_time: ProcessingTimeText.businessDays,
    withdraw_enabled: true,
  },
  {
    id: 'usdt_trc20',
    name: PaymentMethodName.usdtTrc20,
    avatar_url: 'usdt_trc20.svg',
    category: 'crypto',
    country_code: 'ALL',
    currency_code: 'ALL',
    integration_type: 'crypto_address',
    sums: { min: '10', max: '50000', currency: SUMS_BASE_CURRENCY },
    payment_currency: 'USDT',
    crypto_network: 'TRC20',
    requisites: null,
    estimated_processing_time: ProcessingTimeText.withinHour,
    withdraw_enabled: true,
  },
  {
    id: 'btc',
    name: PaymentMethodName.bitcoin,
    avatar_url: 'btc.svg',
    category: 'crypto',
    country_code: 'ALL',
    currency_code: 'ALL',
    integration_type: 'crypto_address',
    sums: { min: '20', max: '50000', currency: SUMS_BASE_CURRENCY },
    payment_currency: 'BTC',
    crypto_network: 'Bitcoin',
    requisites: null,
    estimated_processing_time: ProcessingTimeText.withinHour,
    withdraw_enabled: true,
  },
  {
    id: 'oxapay_crypto',
    name: PaymentMethodName.cryptoLink,
    avatar_url: 'oxapay.svg',
    category: 'crypto',
    country_code: 'ALL',
    currency_code: 'ALL',
    integration_type: 'oxapay_link',
    sums: { min: '5', max: '100000', currency: SUMS_BASE_CURRENCY },
    payment_currency: null,
    crypto_network: null,
    requisites: null,
    estimated_processing_time: ProcessingTimeText.instant,
    withdraw_enabled: false,
  },
];

/**
 * PAYMENTS_MODE=live: the same integrations served by OxaPay (mode.ts LIVE_METHOD_IDS), each the
 * twin of a sandbox row under its own id. Only one of the two groups is offered at a time; the
 * rows stay apart so every transaction keeps saying whether it was a sandbox one.
 */
const LIVE_TWINS: readonly (readonly [sandboxId: string, liveId: string])[] = [
  ['usdt_trc20', 'oxapay_usdt_trc20'],
  ['btc', 'oxapay_btc'],
  ['oxapay_crypto', 'oxapay_invoice'],
];

export const SEED_METHODS: readonly SeedMethod[] = [
  ...SANDBOX_AND_MANUAL_METHODS,
  ...LIVE_TWINS.map(([sandboxId, id]) => {
    const twin = SANDBOX_AND_MANUAL_METHODS.find((m) => m.id === sandboxId);
    if (!twin) throw new Error(`No sandbox method ${sandboxId} to mirror`);
    return { ...twin, id };
  }),
];

/** Insert the seed methods that are not in the table yet. Returns how many were added. */
export async function seedPaymentMethods(trx: Trx, now: number): Promise<number> {
  const existing = new Set(await paymentMethodIds(trx));
  let added = 0;
  for (const [i, m] of SEED_METHODS.entries()) {
    if (existing.has(m.id)) continue;
    const d = decimalsOf(m.sums.currency);
    const min = toMinor(m.sums.min, d);
    const max = toMinor(m.sums.max, d);
    if (min === null || max === null) throw new Error(`Bad seed sums for ${m.id}`);
    await insertPaymentMethod(trx, {
      id: m.id,
      name: m.name,
      avatar_url: m.avatar_url,
      category: m.category,
      country_code: m.country_code,
      currency_code: m.currency_code,
      supports_all_currencies: m.currency_code === 'ALL' ? 1 : 0,
      integration_type: m.integration_type,
      sums_currency: m.sums.currency,
      min_amount: min,
      max_amount: max,
      payment_currency: m.payment_currency,
      crypto_network: m.crypto_network,
      requisites: m.requisites ? JSON.stringify(m.requisites) : null,
      estimated_processing_time: m.estimated_processing_time,
      is_active: 1,
      deposit_enabled: 1,
      withdraw_enabled: m.withdraw_enabled ? 1 : 0,
      sort_order: i + 1,
      created_at: now,
      updated_at: now,
    });
    added++;
  }
  return added;
}

/** A stored method in the wire shape; with `currency`, available_sums are in that currency. */
export function toWireMethod(row: PaymentMethodRow, currency?: string, rates?: RateTable): PaymentMethod {
  const d = decimalsOf(row.sums_currency);
  const base: PaymentMethod = {
    id: row.id,
    name: row.name,
    avatar_url: row.avatar_url,
    category: row.category as PaymentMethod['category'],
    country_code: row.country_code,
    currency_code: row.currency_code,
    supports_all_currencies: Number(row.supports_all_currencies) === 1,
    integration_type: row.integration_type as IntegrationType,
    available_sums: {
      min: fromMinor(Number(row.min_amount), d),
      max: fromMinor(Number(row.max_amount), d),
      currency: row.sums_currency,
    },
    payment_currency: row.payment_currency,
    crypto_network: row.crypto_network,
    is_active: Number(row.is_active) === 1,
    deposit_enabled: Number(row.deposit_enabled) === 1,
    // Belt and braces: the link integration never pays out, whatever the row says.
    withdraw_enabled: Number(row.withdraw_enabled) === 1 && row.integration_type !== 'oxapay_link',
    estimated_processing_time: row.estimated_processing_time,
    sandbox: isSandboxMethod(row.id),
  };
  if (currency) {
    const sums = sumsInMinor(base, currency, rates);
    if (sums) {
      base.available_sums = {
        min: fromMinor(sums.min, sums.currency.decimals),
        max: fromMinor(sums.max, sums.currency.decimals),
        currency: sums.currency.iso_code,
      };
    }
  }
  return base;
}

export interface MethodFilter {
  currency?: string;
  direction?: 'deposit' | 'withdrawal' | 'all';
  /** Only the methods offered in this payments mode (mode.ts); all when absent. */
  mode?: PaymentsMode;
  /** The rates a requested currency's limits convert with; the configured ones when absent. */
  rates?: RateTable;
}

/** Active methods, in catalogue order, optionally only those serving a currency and a direction. */
export async function listPaymentMethods(trx: Trx, filter: MethodFilter = {}): Promise<PaymentMethod[]> {
  const rows = await activePaymentMethods(trx);
  const currency = filter.currency ? findCurrency(filter.currency)?.iso_code : undefined;
  return rows
    .filter((r) => (filter.mode ? methodOffered(r.id, filter.mode) : true))
    .map((r) => toWireMethod(r, currency, filter.rates))
    .filter((m) => (currency ? methodSupportsCurrency(m, currency) : true))
    .filter((m) => {
      if (filter.direction === 'deposit') return m.deposit_enabled;
      if (filter.direction === 'withdrawal') return m.withdraw_enabled;
      return true;
    });
}
