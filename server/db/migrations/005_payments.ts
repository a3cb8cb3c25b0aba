/**
 * Payments: the payment-method catalogue and the deposits/withdrawals (see docs/money.md).
 * Money columns are integer minor units; times are milliseconds since the epoch.
 */
import { sql, type Kysely } from 'kysely';
import { autoId, idType, type SqlDialect } from './dialect';

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('avatar_url', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('cards', 'bank', 'crypto')`))
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('supports_all_currencies', 'integer', (c) => c.notNull().check(sql`supports_all_currencies in (0, 1)`))
    .addColumn('integration_type', 'text', (c) =>
      c.notNull().check(sql`integration_type in ('manual', 'crypto_address', 'oxapay_link')`),
    )
    .addColumn('sums_currency', 'text', (c) => c.notNull())
    .addColumn('min_amount', 'bigint', (c) => c.notNull().check(sql`min_amount > 0`))
    .addColumn('max_amount', 'bigint', (c) => c.notNull())
    .addColumn('payment_currency', 'text')
    .addColumn('crypto_network', 'text')
    .addColumn('requisites', 'text')
    .addColumn('estimated_processing_time', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1).check(sql`is_active in (0, 1)`))
    .addColumn('deposit_enabled', 'integer', (c) => c.notNull().defaultTo(1).check(sql`deposit_enabled in (0, 1)`))
    .addColumn('withdraw_enabled', 'integer', (c) => c.notNull().defaultTo(1).check(sql`withdraw_enabled in (0, 1)`))
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('payment_methods_sums', sql`max_amount >= min_amount`)
    // The payment link is a deposit-only integration (spec: oxapay_link is excluded from withdrawal).
    .addCheckConstraint('payment_methods_link_no_withdraw', sql`integration_type <> 'oxapay_link' or withdraw_enabled = 0`)
    .execute();

  await db.schema
    .createTable('payment_transactions')
    .addColumn('id', idType(dialect), autoId(dialect))
    .addColumn('user_id', idType(dialect), (c) => c.notNull().references('users.id'))
    .addColumn('transaction_type', 'text', (c) => c.notNull().check(sql`transaction_type in ('deposit', 'withdrawal')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'processing', 'approved', 'failed', 'expired', 'cancelled')`),
    )
    .addColumn('client_request_id', 'text')
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('method_name', 'text', (c) => c.notNull())
    .addColumn('integration_type', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull().check(sql`account = 'real'`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('final_amount', 'bigint', (c) => c.notNull().check(sql`final_amount >= 0`))
    .addColumn('payment_currency', 'text', (c) => c.notNull())
    .addColumn('amount_payment_currency', 'bigint', (c) => c.notNull().check(sql`amount_payment_currency >= 0`))
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('balance_before', 'bigint')
    .addColumn('balance_after', 'bigint')
    .addColumn('crypto_wallet_address', 'text')
    .addColumn('crypto_network', 'text')
    .addColumn('crypto_transaction_hash', 'text')
    .addColumn('payment_url', 'text')
    .addColumn('invoice_id', 'text')
    .addColumn('checkout_token', 'text')
    .addColumn('requisit', 'text')
    .addColumn('payment_details', 'text')
    .addColumn('estimated_processing_time', 'text')
    .addColumn('error_message', 'text')
    .addColumn('expired_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // NULLs are distinct in SQLite and PostgreSQL, so rows without these values are not constrained.
  await db.schema
    .createIndex('payment_tx_user_request')
    .on('payment_transactions')
    .columns(['user_id', 'client_request_id'])
    .unique()
    .execute();
  await db.schema.createIndex('payment_tx_invoice').on('payment_transactions').column('invoice_id').unique().execute();
  // A deposit address belongs to one deposit, and one on-chain transfer credits one deposit;
  // withdrawals may pay the same user address many times (partial indexes: SQLite and PostgreSQL).
  await sql`create unique index payment_tx_address on payment_transactions (crypto_wallet_address) where transaction_type = 'deposit'`.execute(db);
  await sql`create unique index payment_tx_hash on payment_transactions (crypto_transaction_hash) where transaction_type = 'deposit'`.execute(db);
  await db.schema.createIndex('payment_tx_user_id').on('payment_transactions').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('payment_tx_status_expiry').on('payment_transactions').columns(['status', 'expired_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_transactions').execute();
  await db.schema.dropTable('payment_methods').execute();
}
