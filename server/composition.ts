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
import { userRoom } from './infra/rooms';
import { avatarsDir, uploadsDir } from './domain/profile/storage';

export interface CompositionOptions {
  /** A price feed to use instead of the embedded simulator (tests drive prices with one). */
  marketFeed?: PriceFeed;
  /** Cluster feed leadership poll (ms); tests poll faster than the default. */
  clusterPollMs?: number;
}

export async function buildServices(base: ServerBase, options: CompositionOptions = {}) {
  const { config, db, log, now, tx } = base;

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
  const orders = new OrdersService({ db, tx, now, log, market, fx, riskMaxPairLossUsd: config.riskMaxPairLossUsd, cluster: cluster !== null });
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

  // New services go above, after what they need, and into this object.
  return { mailer, sessions, auth, accounts, demoLogin, market, fx, cluster, orders, payments, profile, alerts, journal };
}

/** Every domain service of a running server (ctx.services). */
export type Services = Awaited<ReturnType<typeof buildServices>>;
