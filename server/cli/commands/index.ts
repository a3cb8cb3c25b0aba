/** Every operator command, in the order `help` lists them. Add a new area's command here. */
import type { CliCommand } from './types';
import { sessionCommand } from './session';
import { outboxCommand } from './outbox';
import { txCommand } from './tx';
import { auditCommand } from './audit';
import { booksCommand, exposureCommand, pnlCommand, riskCommand } from './books';
import { documentsCommand } from './documents';
import { telegramCommand } from './telegram';
import { orderCommand } from './order';
import { ticksCommand } from './ticks';
import { pairsCommand } from './pairs';
import { migrateCommand } from './migrate';
import { operatorsCommand } from './operators';
import { auditLogCommand } from './audit-log';

export const commands: CliCommand[] = [sessionCommand, outboxCommand, txCommand, auditCommand, booksCommand, pnlCommand, exposureCommand, riskCommand, documentsCommand, telegramCommand, orderCommand, ticksCommand, pairsCommand, migrateCommand, operatorsCommand, auditLogCommand];
