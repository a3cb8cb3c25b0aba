/**
 * The trading journal's service (ctx.services.journal): the owner's settled orders summed up
 * for a period, up to now (journal.ts). server/composition.ts creates it.
 */
import type { Journal, JournalPeriod } from '../../../contract/statistics';
import type { JournalDeps } from './deps';
import { buildJournal } from './journal';

export class JournalService {
  constructor(private readonly deps: JournalDeps) {}

  /** GET /api/v2/statistics/me: the owner's journal of `period` in their time zone (the profile's, else the device's). */
  journal(userId: number, period: JournalPeriod, deviceZone?: string): Promise<Journal> {
    return buildJournal(this.deps.db, userId, period, this.deps.now(), deviceZone);
  }
}
