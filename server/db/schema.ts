/** The Kysely database interface: the union of every area's tables (server/db/tables/). */
import type { CoreTables } from './tables/core';
import type { AuthTables } from './tables/auth';
import type { MarketTables } from './tables/market';
import type { OrderTables } from './tables/orders';
import type { PaymentTables } from './tables/payments';
import type { ProfileTables } from './tables/profile';
import type { BookTables } from './tables/books';
import type { AlertTables } from './tables/alerts';
import type { TickChainTables } from './tables/tick-chain';
import type { ConsoleTables } from './tables/console';
import type { SupportTables } from './tables/support';

export interface Database extends CoreTables, AuthTables, MarketTables, OrderTables, PaymentTables, ProfileTables, BookTables, AlertTables, TickChainTables, ConsoleTables, SupportTables {}
