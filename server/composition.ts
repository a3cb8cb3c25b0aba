/**
 * The server's composition root: builds every domain service once, in dependency order, and
 * returns them as one typed object. Area modules (server/routes/*) take what they use from
 * `ctx.services` and only register routes, socket handlers and jobs; nothing is created or
 * looked up by name anywhere else.
 *
 * Adding a service: construct it below after the services it needs (pass them to its
 * constructor, never the whole context), add it to the returned object, and its type follows
 * through `Services`. See docs/architecture.md, "How to add a service".
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServerBase } from './base';
import { Mailer } from './domain/mail';
import { AuthService } from './domain/auth/service';
import { AccountsService } from './domain/auth/accounts';
import { SessionCheck } from './domain/auth/sessions';
import { seedDemoUser } from './domain/auth/demo';
import { primeDummyHash } from './domain/auth/passwords';
import { Market } from './domain/market/service';
import { marketFx } from './domain/market/fx';
import { buildClusterNode } from './cluster';
import type { PriceFeed } from './domain/market/types';
import { OrdersService } from './domain/orders/service';
import { PaymentsService } from './domain/payments/service';
import { paymentsModeOptions } from './domain/payments/mode';
import { ProfileService } from './domain/profile/service';
import { SecretBox } from './domain/profile/secret-box';
import { AlertsService } from './domain/alerts/service';
import { JournalService } from './domain/statistics/service';
import { SupportService } from './domain/support/service';
import { userRoom } from './infra/rooms';
import { avatarsDir, uploadsDir } from './domain/profile/storage';
import { OperatorsService } from './domain/operators/service';
import { ApprovalsService } from './domain/approvals/service';
import { ConsoleService } from './domain/console/service';
import { approvalExecutors } from './domain/console/executors';
import { SQLITE_FILE } from './db';
import { BackupSchedule } from './infra/backup-schedule';
import { Metrics, type MetricSources } from './infra/metrics';
import { lastBackupAt, lastVerifiedRestoreAt } from './db/backup';
import { booksSumByCurrency } from './domain/ledger';
import { readExposure } from './domain/orders/exposure';
import { earliestOpenExpiry } from './domain/orders/repository';
import { oldestWaitingWithdrawal } from './domain/payments/repository';
import { documentsAwaitingReview } from './domain/profile/repository';
import { ticketsAwaitingSupport } from './domain/support/repository';

export interface CompositionOptions {
  /** A price feed to use instead of the embedded simulator (tests drive prices with one). */
  marketFeed?: PriceFeed;
  /** Cluster feed leadership poll (ms); tests poll faster than the default. */
  clusterPollMs?: number;
}

export async function buildServices(base: ServerBase, options: CompositionOptions = {}) {
  const { config, db, log, now, tx } = base;
  // The metrics (infra/metrics.ts): counters on the hot paths now, the scrape-time sources below
  // once the services they read exist.
  const sources: MetricSources = {};
  const metrics = new Metrics(sources, now);

  // ---- auth: mail, sessions, accounts ------------------------------------------------------
  const mailer = new Mailer({ db, from: config.mailFrom, now, log, smtpUrl: config.smtpUrl, echo: config.logLevel !== 'silent' });
  const sessions = new SessionCheck(db);
  const auth = new AuthService({
    db,
    tx,
    now,
    log,
    tokens: base.tokens,
    mailer,
    publicUrl: base.publicUrl,
    jwtSecret: base.secrets.jwtSecret,
    rateLimit: config.rateLimit,
    refreshTokenTtl: config.refreshTokenTtl,
  });
  const accounts = new AccountsService({ db, tx, now });
  await primeDummyHash();
  let demoLogin: { username: string; password: string } | null = null;
  if (config.seedDemoUser) {
    demoLogin = await seedDemoUser({ db, tx, now });
    if (!demoLogin) log.warn('the demo user exists with a changed password; not printing a demo login');
  }

  // ---- market and orders -------------------------------------------------------------------
  const market = new Market({
    db,
    tx,
    now,
    log,
    marketFeed: config.marketFeed,
    binanceWsUrl: config.binanceWsUrl,
    simSeed: config.simSeed,
    simTicksPerSecond: config.simTicksPerSecond,
    staleQuoteMs: config.staleQuoteMs,
    tickRetentionHours: config.tickRetentionHours,
    feed: options.marketFeed,
  });
  await market.init();
  // One rate provider over the market's latest ticks (docs/money.md, "Exchange rates"): the risk
  // check at placement and every conversion of the payments share it and its pair index.
  const fx = marketFx(market);
  // Several nodes on PostgreSQL (docs/cluster.md): one leads the feed, the others follow the tick
  // bus; null on SQLite. Started and stopped by the market module.
  const cluster = buildClusterNode(base, market, { pollMs: options.clusterPollMs });
  const orders = new OrdersService({ db, tx, now, log, market, fx, riskMaxPairLossUsd: config.riskMaxPairLossUsd, cluster: cluster !== null, onSettled: (lagMs) => metrics.observeSettled(lagMs) });
  // Tick retention keeps every tick from the oldest open order's acceptance on (its entry and
  // exit ticks are what its settlement is checked against).
  market.setRetentionFloor(() => orders.earliestOpenAcceptedAt());

  // ---- money -------------------------------------------------------------------------------
  const payments = new PaymentsService({
    db,
    tx,
    now,
    log,
    publicUrl: base.publicUrl,
    oxapayWebhookSecret: base.secrets.oxapayWebhookSecret,
    cryptoConfirmDelaySeconds: config.cryptoConfirmDelaySeconds,
    ...paymentsModeOptions(config),
    rates: fx,
    ...(cluster ? { isLeader: () => cluster.status().role === 'leader' } : {}),
  });
  await payments.seed();

  // ---- profile (plugs two-factor into the login) -------------------------------------------
  const profile = new ProfileService({
    db,
    tx,
    now,
    log,
    dataDir: config.dataDir,
    box: new SecretBox(base.secrets.jwtSecret),
    events: base.events,
    mailer,
    limiter: auth.limiter,
    publicUrl: base.publicUrl,
    telegram: { botToken: config.telegramBotToken, botName: config.telegramBotName, webhookSecret: base.secrets.telegramWebhookSecret },
  });
  auth.setSecondFactorGate({ challenge: (userId) => profile.twoFactor.challenge(userId) });
  await fs.mkdir(avatarsDir(config.dataDir), { recursive: true, mode: 0o700 });
  await fs.mkdir(uploadsDir(config.dataDir), { recursive: true, mode: 0o700 });

  // ---- trader tools: price alerts (listen to the market's ticks once started), the journal --
  const alerts = new AlertsService({
    db,
    tx,
    now,
    log,
    market,
    cluster: cluster !== null,
    events: base.events,
    // Socket.io exists once the server listens (app.ts sets base.io); a fired alert comes later.
    emitToUser: (userId, event, payload) => {
      base.io?.to(userRoom(userId)).emit(event, payload);
    },
    telegram: profile.sender,
    mailer,
  });
  const journal = new JournalService({ db, now });

  // ---- operations: the scheduled backup (BACKUP_EVERY; started by the operations module) -----
  const backups = config.backupEveryMs
    ? new BackupSchedule({
        source: { databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, SQLITE_FILE) },
        dir: config.backupDir ?? path.join(config.dataDir, 'backups'),
        everyMs: config.backupEveryMs,
        keep: config.backupKeep,
        now,
        log,
        ...(cluster ? { isLeader: () => cluster.status().role === 'leader' } : {}),
      })
    : null;

  // ---- what the metrics read when Prometheus scrapes ------------------------------------------
  const backupDir = config.backupDir ?? path.join(config.dataDir, 'backups');
  Object.assign(sources, {
    socketConnections: () => base.io?.engine.clientsCount ?? 0,
    ticks: () => market.listPairs().map((p) => ({ pair: p.pair_code, feed: market.isSimulated(p.pair_code) ? 'simulator' : config.marketFeed, at: market.latestTick(p.pair_code)?.time ?? null })),
    earliestOpenExpiry: () => earliestOpenExpiry(db),
    outboxBacklog: () => base.events.backlog(),
    oldestWaitingWithdrawal: () => oldestWaitingWithdrawal(db),
    kycQueue: () => documentsAwaitingReview(db),
    exposure: async () =>
      (await readExposure(db, config.riskMaxPairLossUsd, fx.perUsd)).map((e) => ({ pair: e.pair, worstUsdMinor: e.worst_case_usd_minor, limitUsdMinor: e.limit_usd_minor })),
    booksSum: () => booksSumByCurrency(db),
    lastBackupAt: () => backups?.last?.at ?? lastBackupAt(backupDir),
    lastVerifiedRestoreAt: () => lastVerifiedRestoreAt(backupDir),
    ...(cluster ? { cluster: () => cluster.status() } : {}),
    supportQueue: () => ticketsAwaitingSupport(db),
  } satisfies MetricSources);

  // ---- the operator console (issue 27): operators, the audit chain, four eyes --------------
  const operators = new OperatorsService({ db, tx, now, log, box: new SecretBox(base.secrets.jwtSecret) });
  const approvals = new ApprovalsService({ db, tx, now, executors: approvalExecutors(), names: (ids) => operators.names(ids) });
  const consoleService = new ConsoleService({
    db,
    tx,
    now,
    dataDir: config.dataDir,
    publicUrl: base.publicUrl,
    riskMaxPairLossUsd: config.riskMaxPairLossUsd,
    fourEyes: { withdrawalUsd: config.fourEyesWithdrawalUsd, withdrawalLimits: config.fourEyesWithdrawalLimits },
    fx,
    approvals,
    market,
    mailer,
    supportOpenCount: () => ticketsAwaitingSupport(db),
  });

  // ---- support center: tickets (trader) and the support inbox (operators) ----------------
  const support = new SupportService({
    db,
    tx,
    now,
    log,
    dataDir: config.dataDir,
    orders,
    payments,
    profile,
    accounts,
    operators,
    events: base.events,
    emitToUser: (userId, event, payload) => {
      base.io?.to(userRoom(userId)).emit(event, payload);
    },
    telegram: profile.sender,
    mailer,
    publicUrl: base.publicUrl,
  });

  // New services go above, after what they need, and into this object.
  return { mailer, sessions, auth, accounts, demoLogin, market, fx, cluster, orders, payments, profile, alerts, journal, backups, metrics, operators, approvals, console: consoleService, support };
}

/** Every domain service of a running server (ctx.services). */
export type Services = Awaited<ReturnType<typeof buildServices>>;
