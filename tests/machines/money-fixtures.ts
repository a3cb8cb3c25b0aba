/**
 * Test data for the money machines and views: the seeded payment-method catalogue as the
 * server sends it (bounds in each method's own currency), and deposit / withdrawal results and
 * transactions shaped like contract/payments.ts.
 */
import type { DepositResult, IntegrationType, PaymentMethod, Transaction, WithdrawalResult } from '../../contract/payments';

function method(overrides: Partial<PaymentMethod> & Pick<PaymentMethod, 'id' | 'name' | 'integration_type'>): PaymentMethod {
  return {
    avatar_url: `${overrides.id}.svg`,
    category: 'crypto',
    country_code: 'ALL',
    currency_code: 'ALL',
    supports_all_currencies: true,
    available_sums: { min: 10, max: 50000, currency: 'USD' },
    payment_currency: null,
    crypto_network: null,
    is_active: true,
    deposit_enabled: true,
    withdraw_enabled: true,
    estimated_processing_time: 'up to 1 hour',
    ...overrides,
  };
}

export const CARD = method({
  id: 'card_visa_mastercard',
  name: 'Visa / Mastercard',
  avatar_url: 'visa_mastercard.svg',
  category: 'cards',
  integration_type: 'manual',
  available_sums: { min: 10, max: 5000, currency: 'USD' },
  estimated_processing_time: 'up to 24 hours',
});
export const SEPA = method({
  id: 'bank_transfer_sepa',
  name: 'Bank transfer (SEPA)',
  avatar_url: 'bank_transfer.svg',
  category: 'bank',
  currency_code: 'EUR',
  supports_all_currencies: false,
  integration_type: 'manual',
  available_sums: { min: 50, max: 20000, currency: 'EUR' },
  estimated_processing_time: '1-3 business days',
});
export const USDT = method({
  id: 'usdt_trc20',
  name: 'USDT (TRC20)',
  avatar_url: 'usdt_trc20.svg',
  integration_type: 'crypto_address',
  payment_currency: 'USDT',
  crypto_network: 'TRC20',
});
export const OXAPAY = method({
  id: 'oxapay_crypto',
  name: 'Crypto payment link (OxaPay)',
  avatar_url: 'oxapay.svg',
  integration_type: 'oxapay_link',
  available_sums: { min: 5, max: 100000, currency: 'USD' },
  withdraw_enabled: false,
});
export const METHODS: PaymentMethod[] = [CARD, SEPA, USDT, OXAPAY];

export function depositResult(integration: IntegrationType, overrides: Partial<DepositResult> = {}): DepositResult {
  const id = overrides.transaction_id ?? 41;
  const manual = integration === 'manual';
  return {
    transaction_id: id,
    status: 'pending',
    currency: 'USD',
    payment_method: manual ? CARD.name : integration === 'crypto_address' ? USDT.name : OXAPAY.name,
    integration_type: integration,
    payment_url: integration === 'oxapay_link' ? 'http://127.0.0.1/checkout/sandbox/inv_1' : null,
    amount_payment_currency: 100,
    payment_currency: integration === 'crypto_address' ? 'USDT' : 'USD',
    expired_at: 1_800_000_000,
    invoice_id: integration === 'oxapay_link' ? 'inv_1' : null,
    integration_data: manual
      ? null
      : {
          amount: 100,
          currency: integration === 'crypto_address' ? 'USDT' : 'USD',
          crypto_network: integration === 'crypto_address' ? 'TRC20' : null,
          crypto_wallet_address: integration === 'crypto_address' ? 'TXYZabcdefghijklmnopqrstuvwxyz1234' : null,
          qr_code: integration === 'crypto_address' ? 'data:image/png;base64,iVBORw0KGgo=' : null,
          payment_url: integration === 'oxapay_link' ? 'http://127.0.0.1/checkout/sandbox/inv_1' : null,
        },
    transaction: {
      id,
      amount: 100,
      amount_payment_currency: 100,
      status: 'pending',
      created_at: 1_799_998_200,
      expired_at: 1_800_000_000,
      requisit: manual ? { card_number: '4000 0012 3456 7899', cardholder_name: 'TRADETERMINAL LTD' } : null,
    },
    ...overrides,
  };
}

export function transaction(overrides: Partial<Transaction> = {}): Transaction {
  const type = overrides.transaction_type ?? 'deposit';
  return {
    id: 41,
    transaction_type: type,
    type,
    approval_status: 'pending',
    method: CARD.name,
    payment_method_id: CARD.id,
    account_type: 'real',
    amount: 100,
    currency_code: 'USD',
    final_amount: 100,
    amount_payment_currency: 100,
    payment_currency: 'USD',
    exchange_rate: 1,
    balance_before: null,
    balance_after: null,
    created_at: 1_799_998_200,
    updated_at: 1_799_998_260,
    expired_at: null,
    crypto_wallet_address: null,
    crypto_network: null,
    crypto_transaction_hash: null,
    payment_url: null,
    integration_type: 'manual',
    invoice_id: null,
    error_message: null,
    user_id: 7,
    requisit: null,
    payment_details: null,
    estimated_processing_time: null,
    ...overrides,
  };
}

export function withdrawalResult(overrides: Partial<WithdrawalResult> = {}): WithdrawalResult {
  const id = overrides.transaction_id ?? 52;
  return {
    transaction_id: id,
    payment_method: CARD.name,
    status: 'pending',
    estimated_processing_time: 'up to 24 hours',
    transaction: transaction({ id, transaction_type: 'withdrawal', type: 'withdrawal', amount: 25, final_amount: 25 }),
    ...overrides,
  };
}
