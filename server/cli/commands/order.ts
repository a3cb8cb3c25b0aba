/**
 * Operator command `order <id>`: print one order, its entry and exit ticks as the tick log holds
 * them, and re-check its settlement from the log (close price = the last logged tick at or before
 * expiry; won / tie / lost and the payout by docs/orders.md; an early close re-priced at its
 * recorded moment) against the order row and what the ledger paid. Read-only.
 *
 * Exit code: 0 the settlement agrees (or the order is still open), 1 it disagrees or there is no
 * such order, 3 it cannot be checked (the log no longer holds the ticks, e.g. pruned by
 * retention), 2 bad usage. The server writes ticks in batches every 500 ms; an order's own entry
 * and exit ticks are written with the order.
 */
import * as v from 'valibot';
import { findCurrency } from '../../../contract/currencies';
import { formatMinor } from '../../../contract/money';
import { tradingAccountOf } from '../../domain/orders/wire';
import { orderPairCode } from '../../domain/orders/repository';
import { checkOrder, type OrderCheck } from '../../domain/orders/verify';
import { pairSpec } from '../../domain/market/catalogue';
import type { Tick } from '../../domain/market/types';
import { UsageError, type CliCommand } from './types';

const IdSchema = v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'Order id must be a positive whole number'), v.transform(Number));

const iso = (ms: number) => new Date(ms).toISOString();

export function describeOrderCheck(c: OrderCheck): string[] {
  const r = c.row;
  const decimals = findCurrency(r.currency)?.decimals ?? 2;
  const money = (minor: number) => `${formatMinor(minor, decimals)} ${r.currency}`;
  const precision = Number(r.price_precision);
  const tick = (t: Tick | null | undefined) => (t ? `seq ${t.seq} at ${iso(t.time)} price ${t.price.toFixed(precision)}` : 'none');
  const logged = (recorded: Tick | null, found: Tick | undefined) => {
    if (!recorded) return '';
    if (!found) return '  | log: not found';
    return found.price === recorded.price && found.time === recorded.time ? '  | log: same' : `  | log: ${tick(found)}`;
  };
  const lines = [
    `Order #${r.id}  user ${r.user_id}  ${r.pair_code} ${r.direction}  ${tradingAccountOf(r.account)}  stake ${money(Number(r.stake))}  payout rate ${Number(r.payout_rate_bp) / 100} %`,
    `  accepted ${iso(Number(r.accepted_at))}  expires ${iso(Number(r.expires_at))} (${r.expiry_seconds} s)`,
    `  status ${r.status}` +
      (r.status === 'closed'
        ? `  result ${r.result}  reason ${r.close_reason}  closed ${r.closed_at === null ? '-' : iso(Number(r.closed_at))}  payout ${money(Number(r.payout ?? 0))}`
        : ''),
    `Entry tick  ${tick(c.entry.recorded)}${logged(c.entry.recorded, c.entry.logged)}`,
    `Exit tick   ${tick(c.exit.recorded)}${logged(c.exit.recorded, c.exit.logged)}`,
    `Close by the rules (last logged tick at or before expiry): ${tick(c.closeTick)}`,
    `Ledger: stake debited ${money(c.staked)}, credited at settlement ${money(c.paid)}`,
  ];
  if (c.pruned) lines.push('Tick log: retention has deleted ticks of this order (TICK_RETENTION_HOURS)');
  if (c.expected) lines.push(`Re-check: ${c.expected.result}, payout ${money(c.expected.payout)}`);
  lines.push(...c.findings.map((f) => `  ${f}`));
  const verdict = {
    open: 'OPEN: not settled yet',
    agrees: `AGREES: ${r.result}, paid ${money(c.paid)}`,
    disagrees: 'DISAGREES with what was paid (see above)',
    unverifiable: 'CANNOT VERIFY from the tick log (see above)',
  }[c.verdict];
  lines.push(verdict);
  return lines;
}

export const orderCommand: CliCommand = {
  name: 'order',
  usage: '<id>',
  description: 'show an order with its entry and exit ticks from the tick log and re-check its settlement (exit 1: disagrees, 3: cannot check)',
  async run(args, cli) {
    if (args.length !== 1) throw new UsageError('order takes one order id');
    const id = v.safeParse(IdSchema, args[0]);
    if (!id.success) throw new UsageError(id.issues[0].message);
    // The exit rule needs the pair's stale-quote limit (STALE_QUOTE_MS per category).
    const pairCode = await orderPairCode(cli.db, id.output);
    const staleLimit = cli.config.staleQuoteMs[pairSpec(pairCode ?? '')?.category ?? 'forex'];
    const check = await checkOrder(cli.db, id.output, cli.now(), cli.config.tickRetentionHours, staleLimit);
    if (!check) {
      cli.err(`No order #${id.output}`);
      return 1;
    }
    const lines = describeOrderCheck(check);
    const print = check.verdict === 'disagrees' || check.verdict === 'unverifiable' ? cli.err : cli.out;
    for (const line of lines.slice(0, -1)) cli.out(line);
    print(lines[lines.length - 1]);
    return check.verdict === 'disagrees' ? 1 : check.verdict === 'unverifiable' ? 3 : 0;
  },
};
