/**
 * Operator views of the books (docs/money.md, "Operator views of the books"), each with --json:
 *
 *   books                              per currency every account kind's balance and their sum (0)
 *   pnl --from YYYY-MM-DD --to ...     the house's realised trading result per day, pair, account type
 *   exposure                           open real orders per pair and direction, worst case vs limit
 *   risk show | set-limit <PAIR> <USD> | clear-limit <PAIR>    per-pair risk limits
 *
 * Amounts in JSON are integer minor units; in text they are formatted with the currency's decimals.
 */
import { findCurrency } from '../../../contract/currencies';
import { formatMinor, toMinor } from '../../../contract/money';
import { transaction } from '../../db';
import { readBooks } from '../../domain/ledger';
import { pairSpec } from '../../domain/market/catalogue';
import { storedPairCode } from '../../domain/market/repository';
import { readExposure } from '../../domain/orders/exposure';
import { clearPairLimit, closedOrdersByDay, listPairLimits, setPairLimit } from '../../domain/orders/repository';
import { appendAudit } from '../../domain/audit/service';
import { cliActor, parseArgs, UsageError, type CliCommand, type CliContext } from './types';

const money = (minor: number, currency: string) => `${formatMinor(minor, findCurrency(currency)?.decimals ?? 2)} ${currency}`;
const usd = (cents: number) => money(cents, 'USD');

function jsonFlag(args: string[], allowed: string[] = []): { json: boolean; positional: string[]; flags: Record<string, string> } {
  const { positional, flags } = parseArgs(args);
  for (const f of Object.keys(flags)) if (f !== 'json' && !allowed.includes(f)) throw new UsageError(`Unknown option --${f}`);
  if (flags.json !== undefined && flags.json !== 'true') {
    // `--json value` would have eaten a positional argument.
    positional.unshift(flags.json);
  }
  return { json: flags.json !== undefined, positional, flags };
}

export const booksCommand: CliCommand = {
  name: 'books',
  usage: '[--json]',
  description: 'per currency the balance of every account (users per kind, each house account) and their sum, which must be 0 (exit 1 otherwise)',
  async run(args, cli) {
    const { json, positional } = jsonFlag(args);
    if (positional.length > 0) throw new UsageError('books takes no arguments');
    const books = await readBooks(cli.db);
    const unbalanced = Object.values(books.currencies).some((c) => c.sum !== 0);
    if (json) {
      cli.out(JSON.stringify(books));
    } else {
      for (const [currency, c] of Object.entries(books.currencies)) {
        cli.out(currency);
        for (const [account, amount] of Object.entries(c.accounts)) cli.out(`  ${account.padEnd(34)} ${money(amount, currency).padStart(24)}`);
        cli.out(`  ${'sum'.padEnd(34)} ${money(c.sum, currency).padStart(24)}${c.sum === 0 ? '' : '  UNBALANCED'}`);
      }
      if (Object.keys(books.currencies).length === 0) cli.out('No balances yet.');
    }
    return unbalanced ? 1 : 0;
  },
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function dayStart(value: string | undefined, name: string): number {
  if (!value || !DAY.test(value)) throw new UsageError(`--${name} must be a date YYYY-MM-DD (UTC)`);
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw new UsageError(`--${name} is not a valid date: ${value}`);
  return ms;
}

export interface PnlRow {
  day: string;
  pair: string;
  currency: string;
  orders: number;
  stakes: number;
  payouts: number;
  /** Stakes minus payouts: positive when the house won. */
  house_result: number;
}

const DAY_MS = 86_400_000;

/** Closed orders in [fromMs, toMs) by UTC day of the close, pair, account and currency. */
export async function readPnl(cli: Pick<CliContext, 'db'>, fromMs: number, toMs: number): Promise<{ real: PnlRow[]; demo: PnlRow[]; totals: Record<string, number> }> {
  // The UTC day as a day number, named in JS below.
  const rows = await closedOrdersByDay(cli.db, fromMs, toMs, DAY_MS);
  const out = { real: [] as PnlRow[], demo: [] as PnlRow[], totals: {} as Record<string, number> };
  for (const r of rows) {
    const row: PnlRow = {
      day: new Date(Number(r.day) * DAY_MS).toISOString().slice(0, 10),
      pair: r.pair,
      currency: r.currency,
      orders: Number(r.orders),
      stakes: Number(r.stakes),
      payouts: Number(r.payouts),
      house_result: Number(r.stakes) - Number(r.payouts),
    };
    if (r.account === 'demo') {
      out.demo.push(row);
    } else {
      out.real.push(row);
      out.totals[row.currency] = (out.totals[row.currency] ?? 0) + row.house_result;
    }
  }
  return out;
}

export const pnlCommand: CliCommand = {
  name: 'pnl',
  usage: '--from YYYY-MM-DD --to YYYY-MM-DD [--json]',
  description: "the house's realised trading result (stakes - payouts of orders closed in those UTC days) per day, pair and currency; real orders, demo listed apart",
  async run(args, cli) {
    const { json, positional, flags } = jsonFlag(args, ['from', 'to']);
    if (positional.length > 0) throw new UsageError('pnl takes only --from, --to and --json');
    const fromMs = dayStart(flags.from, 'from');
    const toMs = dayStart(flags.to, 'to') + 24 * 3600 * 1000;
    if (toMs <= fromMs) throw new UsageError('--to must not be before --from');
    const pnl = await readPnl(cli, fromMs, toMs);
    if (json) {
      cli.out(JSON.stringify({ from: flags.from, to: flags.to, ...pnl }));
      return 0;
    }
    const line = (r: PnlRow) =>
      `  ${r.day}  ${r.pair.padEnd(10)} ${String(r.orders).padStart(6)} orders  stakes ${money(r.stakes, r.currency).padStart(20)}  paid ${money(r.payouts, r.currency).padStart(20)}  house ${money(r.house_result, r.currency).padStart(20)}`;
    cli.out(`House trading result, real orders closed ${flags.from} .. ${flags.to} (UTC)`);
    if (pnl.real.length === 0) cli.out('  none');
    for (const r of pnl.real) cli.out(line(r));
    for (const [currency, total] of Object.entries(pnl.totals)) cli.out(`  total ${currency}: ${money(total, currency)}`);
    cli.out('Demo orders (play money, not part of the result)');
    if (pnl.demo.length === 0) cli.out('  none');
    for (const r of pnl.demo) cli.out(line(r));
    return 0;
  },
};

export const exposureCommand: CliCommand = {
  name: 'exposure',
  usage: '[--json]',
  description: "open real orders per pair and direction (count, stakes, potential payouts) and the house's worst case against the pair's risk limit",
  async run(args, cli) {
    const { json, positional } = jsonFlag(args);
    if (positional.length > 0) throw new UsageError('exposure takes no arguments');
    const pairs = await readExposure(cli.db, cli.config.riskMaxPairLossUsd);
    if (json) {
      cli.out(JSON.stringify({ pairs }));
      return 0;
    }
    if (pairs.length === 0) cli.out('No open real orders.');
    for (const p of pairs) {
      cli.out(`${p.pair}  worst case ${usd(p.worst_case_usd_minor)}  limit ${usd(p.limit_usd_minor)}${p.worst_case_usd_minor > p.limit_usd_minor ? '  OVER LIMIT' : ''}`);
      for (const [direction, d] of Object.entries(p.directions)) {
        const per = Object.keys(d.stakes).map((c) => `stakes ${money(d.stakes[c], c)}, pays if it wins ${money(d.payouts[c] ?? 0, c)}`);
        cli.out(`  ${direction.padEnd(5)} ${String(d.count).padStart(5)} orders  ${per.join('; ') || '-'}`);
      }
    }
    return 0;
  },
};

const PAIR = /^[A-Za-z0-9]{3,20}$/;
async function knownPair(cli: CliContext, raw: string): Promise<string> {
  if (!PAIR.test(raw)) throw new UsageError(`Not a pair code: ${raw}`);
  const code = raw.toUpperCase();
  if (pairSpec(code)) return code;
  const stored = await storedPairCode(cli.db, code);
  if (stored) return stored;
  throw new UsageError(`Unknown pair ${raw}`);
}

export const riskCommand: CliCommand = {
  name: 'risk',
  usage: 'show [--json] | set-limit <PAIR> <USD> | clear-limit <PAIR>',
  description: "the maximum worst-case house loss per pair (default RISK_MAX_PAIR_LOSS_USD); an order that would exceed it is refused",
  async run(args, cli) {
    const [sub, ...rest] = args;
    if (sub === 'show') {
      const { json, positional } = jsonFlag(rest);
      if (positional.length > 0) throw new UsageError('risk show takes no arguments');
      const limits = await listPairLimits(cli.db);
      const defaultUsdMinor = cli.config.riskMaxPairLossUsd * 100;
      if (json) {
        cli.out(JSON.stringify({ default_usd_minor: defaultUsdMinor, pairs: limits.map((l) => ({ pair: l.pair_code, limit_usd_minor: l.max_loss_usd_minor })) }));
        return 0;
      }
      cli.out(`Default limit per pair: ${usd(defaultUsdMinor)} (RISK_MAX_PAIR_LOSS_USD)`);
      if (limits.length === 0) cli.out('No per-pair limits.');
      for (const l of limits) cli.out(`  ${l.pair_code.padEnd(10)} ${usd(l.max_loss_usd_minor)}  (set ${new Date(l.updated_at).toISOString()})`);
      return 0;
    }
    if (sub === 'set-limit') {
      if (rest.length !== 2) throw new UsageError('risk set-limit takes a pair and an amount in USD');
      const pair = await knownPair(cli, rest[0]);
      const cents = /^\d{1,12}(\.\d{1,2})?$/.test(rest[1]) ? toMinor(rest[1], 2) : null;
      if (cents === null) throw new UsageError(`The limit must be an amount in USD with at most 2 decimals: ${rest[1]}`);
      await transaction(cli.db, async (trx) => {
        await setPairLimit(trx, pair, cents, cli.now());
        await appendAudit(trx, cliActor(), { action: 'risk.limit', targetType: 'pair', targetId: pair, after: { limit_usd_minor: cents } }, cli.now());
      });
      cli.out(`Risk limit of ${pair}: ${usd(cents)}`);
      return 0;
    }
    if (sub === 'clear-limit') {
      if (rest.length !== 1) throw new UsageError('risk clear-limit takes a pair');
      const pair = await knownPair(cli, rest[0]);
      const had = await transaction(cli.db, async (trx) => {
        const cleared = await clearPairLimit(trx, pair);
        if (cleared) await appendAudit(trx, cliActor(), { action: 'risk.clear_limit', targetType: 'pair', targetId: pair }, cli.now());
        return cleared;
      });
      cli.out(had ? `Risk limit of ${pair}: back to the default ${usd(cli.config.riskMaxPairLossUsd * 100)}` : `${pair} had no limit of its own`);
      return 0;
    }
    throw new UsageError('risk needs show, set-limit or clear-limit');
  },
};
