/** Core tables: users, the ledger (balances + append-only entries) and the domain event log. */
import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone: string;
  /** Currency chosen at registration (ISO code). */
  currency: string;
  /** JSON of FrontSettings (contract/user.ts). */
  front_settings: string;
  /** JSON of the registration tracking fields. */
  tracking: string;
  email_verified_at: number | null;
  two_factor_secret: string | null;
  two_factor_enabled: Generated<number>;
  /** Bumped on password change; refresh tokens older than this are dead. */
  password_changed_at: number;
  created_at: number;
  updated_at: number;
  /** Set by an operator (console): a blocked user cannot log in or place orders (migration 016). */
  blocked_at: number | null;
  blocked_reason: string | null;
}

/** One row per (user, currency, account); amount in minor units, CHECK amount >= 0. */
export interface BalancesTable {
  user_id: number;
  currency: string;
  /** real | demo | real_hold (withdrawals waiting for payout) */
  account: string;
  amount: number;
  updated_at: number;
}

export interface LedgerTransactionsTable {
  id: Generated<number>;
  /** Unique: the same key never applies twice (order id, provider event id, client request id). */
  idempotency_key: string;
  kind: string;
  user_id: number;
  ref_type: string | null;
  ref_id: string | null;
  created_at: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  ledger_tx_id: number;
  user_id: number;
  currency: string;
  account: string;
  /** Signed minor units. */
  amount: number;
  balance_after: number;
  created_at: number;
}

/** Transactional outbox of domain events: written in the same transaction as the change. */
export interface DomainEventsTable {
  id: Generated<number>;
  type: string;
  user_id: number | null;
  payload: string;
  created_at: number;
  /** PostgreSQL only: when a node delivered the event (migration 011); SQLite leaves it null. */
  delivered_at: Generated<number | null>;
}

/** One row per leadership (`feed`): the epoch is the fencing token of the current term. */
export interface ClusterLeasesTable {
  name: string;
  epoch: number;
  holder: string;
  taken_at: number;
}

/** PostgreSQL: the generated secrets every node shares (migration 012, server/secrets.ts). */
export interface SharedSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface CoreTables {
  users: UsersTable;
  balances: BalancesTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
  domain_events: DomainEventsTable;
  cluster_leases: ClusterLeasesTable;
  shared_secrets: SharedSecretsTable;
}
