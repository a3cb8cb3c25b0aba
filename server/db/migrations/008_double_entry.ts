/**
 * Double entry: every ledger transaction balances to zero per currency (docs/money.md).
 *
 * - `house_balances` / `house_entries`: the house side of the books (account names start with
 *   `house:`: `house:trading`, `house:demo_issuer`, `house:promotions`, `house:suspense`,
 *   `house:clearing:<provider id>`). Unlike a user's balance a house balance may be negative.
 *   House legs live apart from `ledger_entries` so every existing reader of the user ledger
 *   (order verification, payment balance tracking) keeps reading the user's side only.
 * - `ledger_seals`: one row per ledger transaction, written AFTER its entries. SQLite has no
 *   deferred constraints, so the seal is the transaction's commit point in the books: its insert
 *   trigger refuses a transaction whose entries (user + house) do not sum to zero per currency,
 *   and an entry for an already sealed transaction is refused. postLedger always seals; the
 *   audit reports any transaction left without a seal.
 * - Append-only triggers on the new ledger tables (as 007 does for the old ones).
 * - `risk_limits`: the operator's per-pair maximum worst-case house loss (USD minor units).
 * - `pair_exposure`: open real orders per pair, direction and currency (count, stakes,
 *   potential payouts), kept by triggers on `orders` in the order's own transaction, so the
 *   risk check at placement reads a few rows by primary key (filled from the open orders here).
 * - Indexes: entries by transaction (the seal check), orders by pair and status (exposure view).
 * - Backfill: each existing transaction gets its counter-entry per currency on the house
 *   account that was its real counterparty (demo money: the demo issuer; orders: the house's
 *   trading account; deposits and payouts: the clearing account of the payment's provider; the
 *   demo login's seed money: `house:clearing:seed`; anything else: `house:suspense`), then every
 *   transaction is sealed, which runs the zero-sum check on all of them.
 *
 * The same guards on PostgreSQL, as plpgsql trigger functions with the same rules and messages
 * (the seal stays the commit point on both, so postLedger and the audit do not differ).
 */
import { sql, type Kysely } from 'kysely';
import { autoIdSql, idType, type SqlDialect } from './dialect';
import { appendOnlyPostgres } from './007_ledger_guards';

const APPEND_ONLY = ['house_entries', 'ledger_seals'] as const;

const SUMS_OF_TX = `select currency, sum(amount) as s from (
      select currency, amount from ledger_entries where ledger_tx_id = new.ledger_tx_id
      union all
      select currency, amount from house_entries where ledger_tx_id = new.ledger_tx_id
    ) group by currency`;

export async function up(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await sql`create table house_balances (
    account text not null check (account like 'house:%'),
    currency text not null,
    amount bigint not null,
    updated_at bigint not null,
    primary key (account, currency)
  )`.execute(db);
  await sql`create table house_entries (
    id ${sql.raw(autoIdSql(dialect))},
    ledger_tx_id ${sql.raw(idType(dialect))} not null references ledger_transactions(id),
    account text not null check (account like 'house:%'),
    currency text not null,
    amount bigint not null,
    balance_after bigint not null,
    created_at bigint not null
  )`.execute(db);
  await sql`create index house_entries_tx on house_entries (ledger_tx_id)`.execute(db);
  await sql`create index house_entries_account on house_entries (account, currency)`.execute(db);
  await sql`create index ledger_entries_tx on ledger_entries (ledger_tx_id)`.execute(db);
  await sql`create table ledger_seals (
    ledger_tx_id ${sql.raw(idType(dialect))} primary key references ledger_transactions(id),
    created_at bigint not null
  )`.execute(db);
  await sql`create table risk_limits (
    pair_code text primary key,
    max_loss_usd_minor bigint not null check (max_loss_usd_minor >= 0),
    updated_at bigint not null
  )`.execute(db);
  await sql`create index orders_pair_status on orders (pair_code, status)`.execute(db);
  // The open real orders per pair, direction and currency, kept by triggers on orders in the
  // same transaction as the order row: the placement's risk check reads a few rows by primary
  // key instead of aggregating the pair's open orders.
  await sql`create table pair_exposure (
    pair_code text not null,
    direction text not null,
    currency text not null,
    open_count integer not null,
    stakes bigint not null,
    payouts bigint not null,
    primary key (pair_code, direction, currency)
  )`.execute(db);
  await sql`insert into pair_exposure (pair_code, direction, currency, open_count, stakes, payouts)
    select pair_code, direction, currency, count(*), sum(stake), sum(stake + stake * payout_rate_bp / 10000)
    from orders where status = 'open' and account = 'real' group by pair_code, direction, currency`.execute(db);
  if (dialect === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
  await backfill(db);
}

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create trigger orders_exposure_open after insert on orders when new.status = 'open' and new.account = 'real'
       begin
         insert into pair_exposure (pair_code, direction, currency, open_count, stakes, payouts)
         values (new.pair_code, new.direction, new.currency, 1, new.stake, new.stake + new.stake * new.payout_rate_bp / 10000)
         on conflict (pair_code, direction, currency) do update set
           open_count = open_count + 1, stakes = stakes + excluded.stakes, payouts = payouts + excluded.payouts;
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger orders_exposure_close after update of status on orders
       when old.status = 'open' and new.status <> 'open' and old.account = 'real'
       begin
         update pair_exposure set open_count = open_count - 1, stakes = stakes - old.stake,
           payouts = payouts - (old.stake + old.stake * old.payout_rate_bp / 10000)
         where pair_code = old.pair_code and direction = old.direction and currency = old.currency;
       end`,
    )
    .execute(db);

  await sql
    .raw(
      `create trigger ledger_seals_zero_sum before insert on ledger_seals
       when exists (select 1 from (${SUMS_OF_TX}) where s <> 0)
       begin select raise(abort, 'ledger transaction does not balance: its entries must sum to zero per currency'); end`,
    )
    .execute(db);
  for (const table of ['ledger_entries', 'house_entries']) {
    await sql
      .raw(
        `create trigger ${table}_sealed before insert on ${table}
         when exists (select 1 from ledger_seals where ledger_tx_id = new.ledger_tx_id)
         begin select raise(abort, 'ledger transaction is sealed: ${table} insert refused'); end`,
      )
      .execute(db);
  }
  for (const table of APPEND_ONLY) {
    for (const op of ['update', 'delete']) {
      await sql
        .raw(`create trigger ${table}_no_${op} before ${op} on ${table} begin select raise(abort, '${table} is append-only: ${op} refused'); end`)
        .execute(db);
    }
  }
}

/** The same triggers on PostgreSQL: plpgsql functions, the same conditions and messages. */
async function postgresTriggers(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function orders_exposure() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then
           if new.status = 'open' and new.account = 'real' then
             insert into pair_exposure (pair_code, direction, currency, open_count, stakes, payouts)
             values (new.pair_code, new.direction, new.currency, 1, new.stake, new.stake + new.stake * new.payout_rate_bp / 10000)
             on conflict (pair_code, direction, currency) do update set
               open_count = pair_exposure.open_count + 1, stakes = pair_exposure.stakes + excluded.stakes,
               payouts = pair_exposure.payouts + excluded.payouts;
           end if;
         elsif old.status = 'open' and new.status <> 'open' and old.account = 'real' then
           update pair_exposure set open_count = open_count - 1, stakes = stakes - old.stake,
             payouts = payouts - (old.stake + old.stake * old.payout_rate_bp / 10000)
           where pair_code = old.pair_code and direction = old.direction and currency = old.currency;
         end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql`create trigger orders_exposure_open after insert on orders for each row execute function orders_exposure()`.execute(db);
  await sql`create trigger orders_exposure_close after update of status on orders for each row execute function orders_exposure()`.execute(db);

  await sql
    .raw(
      `create function ledger_seal_zero_sum() returns trigger language plpgsql as $$
       begin
         if exists (
           select 1 from (
             select currency, sum(amount) as s from (
               select currency, amount from ledger_entries where ledger_tx_id = new.ledger_tx_id
               union all
               select currency, amount from house_entries where ledger_tx_id = new.ledger_tx_id
             ) legs group by currency
           ) sums where s <> 0
         ) then
           raise exception 'ledger transaction does not balance: its entries must sum to zero per currency' using errcode = 'P0001';
         end if;
         return new;
       end $$`,
    )
    .execute(db);
  await sql`create trigger ledger_seals_zero_sum before insert on ledger_seals for each row execute function ledger_seal_zero_sum()`.execute(db);
  await sql
    .raw(
      `create function ledger_refuse_sealed() returns trigger language plpgsql as $$
       begin
         if exists (select 1 from ledger_seals where ledger_tx_id = new.ledger_tx_id) then
           raise exception 'ledger transaction is sealed: % insert refused', tg_table_name using errcode = 'P0001';
         end if;
         return new;
       end $$`,
    )
    .execute(db);
  for (const table of ['ledger_entries', 'house_entries']) {
    await sql.raw(`create trigger ${table}_sealed before insert on ${table} for each row execute function ledger_refuse_sealed()`).execute(db);
  }
  for (const table of APPEND_ONLY) await appendOnlyPostgres(db, table);
}

interface OneSided {
  id: number;
  kind: string;
  ref_type: string | null;
  ref_id: string | null;
  created_at: number;
  currency: string;
  s: number;
  demo: number;
}

/** The house account that was the other side of a pre-008 transaction. */
function counterpartyOf(tx: OneSided, providerOfPayment: Map<string, string>): string {
  if (Number(tx.demo) === 1) return 'house:demo_issuer';
  if (tx.kind.startsWith('order_')) return 'house:trading';
  if (tx.ref_type === 'seed') return 'house:clearing:seed';
  if (tx.ref_type === 'payment' && tx.ref_id !== null) {
    const provider = providerOfPayment.get(tx.ref_id);
    if (provider) return `house:clearing:${provider}`;
  }
  return 'house:suspense';
}

async function backfill(db: Kysely<any>): Promise<void> {
  const rows = await sql<OneSided>`
    select t.id, t.kind, t.ref_type, t.ref_id, t.created_at, e.currency, sum(e.amount) as s,
           max(case when e.account = 'demo' then 1 else 0 end) as demo
    from ledger_transactions t join ledger_entries e on e.ledger_tx_id = t.id
    group by t.id, e.currency
    having sum(e.amount) <> 0
    order by t.id, e.currency
  `.execute(db);
  if (rows.rows.length > 0) {
    const payments = await sql<{ id: number; integration_type: string }>`select id, integration_type from payment_transactions`.execute(db);
    const providerOfPayment = new Map(payments.rows.map((p) => [String(p.id), p.integration_type]));
    const running = new Map<string, number>();
    for (const tx of rows.rows) {
      const account = counterpartyOf(tx, providerOfPayment);
      const amount = -Number(tx.s);
      const k = `${account}\u0000${tx.currency}`;
      const after = (running.get(k) ?? 0) + amount;
      running.set(k, after);
      await sql`insert into house_entries (ledger_tx_id, account, currency, amount, balance_after, created_at)
                values (${tx.id}, ${account}, ${tx.currency}, ${amount}, ${after}, ${tx.created_at})`.execute(db);
    }
    const now = Date.now();
    for (const [k, amount] of running) {
      const [account, currency] = k.split('\u0000');
      await sql`insert into house_balances (account, currency, amount, updated_at) values (${account}, ${currency}, ${amount}, ${now})`.execute(db);
    }
  }
  // Sealing runs the zero-sum trigger on every transaction: the migration fails if any is off.
  await sql`insert into ledger_seals (ledger_tx_id, created_at) select id, created_at from ledger_transactions order by id`.execute(db);
}

export async function down(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`drop trigger if exists orders_exposure_open on orders`.execute(db);
    await sql`drop trigger if exists orders_exposure_close on orders`.execute(db);
    await sql`drop trigger if exists ledger_entries_sealed on ledger_entries`.execute(db);
    for (const t of ['pair_exposure', 'risk_limits', 'ledger_seals', 'house_entries', 'house_balances']) await sql.raw(`drop table if exists ${t}`).execute(db);
    await sql`drop index if exists orders_pair_status`.execute(db);
    await sql`drop index if exists ledger_entries_tx`.execute(db);
    for (const f of ['orders_exposure', 'ledger_seal_zero_sum', 'ledger_refuse_sealed']) await sql.raw(`drop function if exists ${f}()`).execute(db);
    return;
  }
  for (const table of APPEND_ONLY) for (const op of ['update', 'delete']) await sql.raw(`drop trigger if exists ${table}_no_${op}`).execute(db);
  await sql`drop trigger if exists ledger_entries_sealed`.execute(db);
  await sql`drop trigger if exists house_entries_sealed`.execute(db);
  await sql`drop trigger if exists ledger_seals_zero_sum`.execute(db);
  await sql`drop trigger if exists orders_exposure_open`.execute(db);
  await sql`drop trigger if exists orders_exposure_close`.execute(db);
  await sql`drop table if exists pair_exposure`.execute(db);
  await sql`drop index if exists orders_pair_status`.execute(db);
  await sql`drop index if exists ledger_entries_tx`.execute(db);
  for (const t of ['risk_limits', 'ledger_seals', 'house_entries', 'house_balances']) await sql.raw(`drop table if exists ${t}`).execute(db);
}
