/**
 * What the operator console's service needs (ConsoleService, built in server/composition.ts):
 * the database, a write transaction, the clock, DATA_DIR (document files), the public address
 * (open-as links), the limits it applies (the default pair risk limit, the four-eyes withdrawal
 * thresholds), the exchange rates (USD equivalents), the approvals service (four eyes), the
 * market (feed health) and the mailer (the user's notice of an open-as session).
 */
import type { DB, RunTx } from '../../db';
import type { ApprovalsService } from '../approvals/service';
import type { FxRates } from '../market/fx';
import type { MarketService } from '../market/types';
import type { Mailer } from '../mail';

export interface ConsoleDeps {
  db: DB;
  tx: RunTx;
  now: () => number;
  dataDir: string;
  publicUrl: () => string;
  riskMaxPairLossUsd: number;
  fourEyes: {
    /** Whole USD: a withdrawal worth at least this much needs a second operator. */
    withdrawalUsd: number;
    /** Per currency, in its own units (decimal strings), replacing the USD threshold. */
    withdrawalLimits: Record<string, string>;
  };
  fx: Pick<FxRates, 'perUsd'>;
  approvals: Pick<ApprovalsService, 'requestIn' | 'approve' | 'reject' | 'list' | 'get' | 'pendingCount' | 'pendingFor' | 'closePendingIn'>;
  market: Pick<MarketService, 'listPairs' | 'latestTick'>;
  mailer: Pick<Mailer, 'enqueue'>;
  /** The support center's open tickets (0 until it lands). */
  supportOpenCount?: () => Promise<number>;
}
