/** The Kysely database interface: the union of every area's tables (server/db/tables/). */
import type { CoreTables } from './tables/core';

export interface Database extends CoreTables {}
