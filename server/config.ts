/**
 * Server configuration from the environment, validated with valibot. Every setting has a
 * default that works on a fresh machine; a bad value stops the server with a clear message.
 */
import * as v from 'valibot';
import os from 'node:os';
import path from 'node:path';
import { isAddressList, parseTrustedProxies } from './http/client-ip';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(min),
      v.maxValue(max),
    ),
    String(def),
  );
const bool = (def: boolean) =>
  v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0', 'yes', 'no']),
      v.transform((s) => s === 'true' || s === '1' || s === 'yes'),
    ),
    def ? 'true' : 'false',
  );

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  HOST: v.optional(v.string(), '127.0.0.1'),
  PORT: int(3000, 0, 65535),
  /** Address the server is reached at from a browser (links in emails, sandbox checkout, admin links). */
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('PUBLIC_URL must be a URL'))),
  DATA_DIR: v.optional(v.string(), './data'),
  /** Where the built SPA lives; the server serves it with a history fallback. */
  DIST_DIR: v.optional(v.string(), './dist'),
  /** HMAC secret for access tokens; generated and kept in DATA_DIR when not set. */
  JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'JWT_SECRET must be at least 32 characters'))),
  ACCESS_TOKEN_TTL_SECONDS: int(900, 30),
  REFRESH_TOKEN_TTL_SECONDS: int(30 * 24 * 3600, 60),
  ADMIN_TOKEN_TTL_SECONDS: int(300, 10),
  SMTP_URL: v.optional(v.string()),
  MAIL_FROM: v.optional(v.string(), 'TradeTerminal <no-reply@tradeterminal.local>'),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'warn'),
  /** Turn the rate limits off (only for load tests on a private machine). */
  RATE_LIMIT: bool(true),
  /** Open sockets allowed per client IP (more are refused at the handshake). */
  SOCKETS_PER_IP: int(50, 1),
  /** Per-socket event rate (token bucket): events per second and the burst allowed. */
  SOCKET_EVENTS_PER_SECOND: int(10, 1),
  SOCKET_EVENT_BURST: int(30, 1),
  /** Seed of the market simulator; the same seed gives the same prices. */
  SIM_SEED: int(20261122),
  /** Ticks per second per pair of the simulator. */
  SIM_TICKS_PER_SECOND: int(4, 1, 50),
  /** Hours of raw ticks kept (ticks needed by open orders are always kept). */
  TICK_RETENTION_HOURS: int(6, 1),
  /** Price feed: the embedded simulator, or Binance spot trades for the crypto pairs (docs/market.md). */
  MARKET_FEED: v.optional(v.picklist(['simulator', 'binance'], 'MARKET_FEED must be simulator or binance'), 'simulator'),
  /** Base address of Binance's spot market streams (a local emulator in tests). */
  BINANCE_WS_URL: v.optional(v.pipe(v.string(), v.regex(/^wss?:\/\//, 'BINANCE_WS_URL must be a ws:// or wss:// address')), 'wss://stream.binance.com:9443'),
  /** A pair whose newest tick is older than this is suspended (stale quotes); per category below. */
  STALE_QUOTE_MS: int(5000, 100),
  STALE_QUOTE_MS_FOREX: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(100))),
  STALE_QUOTE_MS_CRYPTO: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(100))),
  STALE_QUOTE_MS_STOCKS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(100))),
  STALE_QUOTE_MS_COMMODITIES: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(100))),
  /** Seconds the built-in simulated chain takes to confirm a crypto deposit. */
  CRYPTO_CONFIRM_DELAY_SECONDS: int(20, 0),
  /** HMAC secret of the payment-link provider's webhook; generated and kept in DATA_DIR when not set. */
  OXAPAY_WEBHOOK_SECRET: v.optional(v.pipe(v.string(), v.minLength(16))),
  /** sandbox: simulated chain + sandbox checkout, no real money (default); live: OxaPay (docs/money.md, Payments). */
  PAYMENTS_MODE: v.optional(v.picklist(['sandbox', 'live'], 'PAYMENTS_MODE must be sandbox or live'), 'sandbox'),
  /** With NODE_ENV=production the server refuses sandbox payments unless this is 1. */
  ALLOW_SANDBOX_PAYMENTS: bool(false),
  /** OxaPay keys (live mode): merchant key for invoices / white-label, payout key for payouts. */
  OXAPAY_MERCHANT_API_KEY: v.optional(v.string()),
  OXAPAY_PAYOUT_API_KEY: v.optional(v.string()),
  OXAPAY_API_URL: v.optional(v.pipe(v.string(), v.url('OXAPAY_API_URL must be a URL')), 'https://api.oxapay.com'),
  /** Time limit of one OxaPay API call. */
  OXAPAY_TIMEOUT_MS: int(10_000, 100, 120_000),
  /** Telegram Bot API token; without it messages go to the outbox. */
  TELEGRAM_BOT_TOKEN: v.optional(v.string()),
  TELEGRAM_BOT_NAME: v.optional(v.string(), 'TradeTerminalBot'),
  /** Default maximum worst-case house loss per pair on open real orders, whole USD (docs/money.md, risk limit; per-pair overrides: `admin risk`). */
  RISK_MAX_PAIR_LOSS_USD: int(50_000, 0, 1_000_000_000),
  /** Operator console (docs/operator-console.md): a withdrawal of at least this many USD (its USD equivalent) needs a second operator's approval. */
  FOUR_EYES_WITHDRAWAL_USD: int(1000, 0, 1_000_000_000),
  /** Per-currency thresholds in the currency's own units that replace the USD one, e.g. "EUR:900,BTC:0.02". */
  FOUR_EYES_WITHDRAWAL_LIMITS: v.optional(
    v.pipe(v.string(), v.regex(/^([A-Z0-9]{2,10}:\d{1,12}(\.\d{1,8})?)(,[A-Z0-9]{2,10}:\d{1,12}(\.\d{1,8})?)*$/, 'FOUR_EYES_WITHDRAWAL_LIMITS: CODE:amount pairs separated by commas, e.g. EUR:900,BTC:0.02')),
  ),
  /** Create the demo login on first start. */
  SEED_DEMO_USER: bool(true),
  /** PostgreSQL (postgres://user:pass@host:port/db) instead of the embedded SQLite file in DATA_DIR (docs/deploy.md). */
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// address'))),
  /** Connections in this node's PostgreSQL pool. */
  DATABASE_POOL_SIZE: int(10, 1, 500),
  /** Redis (redis://host:port/db): socket.io adapter, shared rate limits, the tick bus between nodes (docs/deploy.md). */
  REDIS_URL: v.optional(v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// address'))),
  /** This node's name in logs, health answers and leadership records; defaults to host name and pid. */
  NODE_ID: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'NODE_ID: letters, digits and _.:- only, at most 64'))),
  /** On SIGTERM: how long a node waits for its work in flight before it closes anyway. */
  SHUTDOWN_GRACE_MS: int(10_000, 0, 120_000),
  /** Addresses of the load balancers whose X-Forwarded-For names the client (comma-separated; docs/deploy.md). */
  TRUST_PROXY: v.optional(v.pipe(v.string(), v.check((s) => isAddressList(s), 'TRUST_PROXY: comma-separated IP addresses'))),
  /** With REDIS_URL: a node that stopped heartbeating this long ago no longer counts toward SOCKETS_PER_IP (docs/deploy-redis.md). */
  SOCKET_COUNT_TTL_MS: int(15_000, 300, 600_000),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string | undefined;
  dataDir: string;
  distDir: string;
  jwtSecret: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  adminTokenTtl: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: string;
  rateLimit: boolean;
  socketsPerIp: number;
  socketEventsPerSecond: number;
  socketEventBurst: number;
  simSeed: number;
  simTicksPerSecond: number;
  tickRetentionHours: number;
  marketFeed: 'simulator' | 'binance';
  binanceWsUrl: string;
  /** Stale-quote limit (ms) per pair category. */
  staleQuoteMs: Record<'forex' | 'crypto' | 'stocks' | 'commodities', number>;
  cryptoConfirmDelaySeconds: number;
  oxapayWebhookSecret: string | undefined;
  paymentsMode: 'sandbox' | 'live';
  allowSandboxPayments: boolean;
  oxapayMerchantApiKey: string | undefined;
  oxapayPayoutApiKey: string | undefined;
  oxapayApiUrl: string;
  oxapayTimeoutMs: number;
  telegramBotToken: string | undefined;
  telegramBotName: string;
  seedDemoUser: boolean;
  /** Default maximum worst-case house loss per pair, whole USD. */
  riskMaxPairLossUsd: number;
  /** Withdrawals needing four eyes: at least this many USD (equivalent) ... */
  fourEyesWithdrawalUsd: number;
  /** ... or per currency, in its own units (decimal strings). */
  fourEyesWithdrawalLimits: Record<string, string>;
  /** PostgreSQL address; undefined: SQLite in dataDir. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Redis address; undefined: one node, everything in process. */
  redisUrl: string | undefined;
  nodeId: string;
  shutdownGraceMs: number;
  /** Balancer addresses whose X-Forwarded-For is believed; empty: none (the connection's address counts). */
  trustProxy: string[];
  /** With Redis: how long a silent node's sockets still count toward the per-IP cap. */
  socketCountTtlMs: number;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, val]) => val !== undefined && val !== ''));
  const result = v.safeParse(EnvSchema, input);
  if (!result.success) {
    const lines = result.issues.map((i) => `  ${v.getDotPath(i) ?? '?'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.output;
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL,
    dataDir: path.resolve(e.DATA_DIR),
    distDir: path.resolve(e.DIST_DIR),
    jwtSecret: e.JWT_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL_SECONDS,
    adminTokenTtl: e.ADMIN_TOKEN_TTL_SECONDS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    rateLimit: e.RATE_LIMIT,
    socketsPerIp: e.SOCKETS_PER_IP,
    socketEventsPerSecond: e.SOCKET_EVENTS_PER_SECOND,
    socketEventBurst: e.SOCKET_EVENT_BURST,
    simSeed: e.SIM_SEED,
    simTicksPerSecond: e.SIM_TICKS_PER_SECOND,
    tickRetentionHours: e.TICK_RETENTION_HOURS,
    marketFeed: e.MARKET_FEED,
    binanceWsUrl: e.BINANCE_WS_URL.replace(/\/+$/, ''),
    staleQuoteMs: {
      forex: e.STALE_QUOTE_MS_FOREX ?? e.STALE_QUOTE_MS,
      crypto: e.STALE_QUOTE_MS_CRYPTO ?? e.STALE_QUOTE_MS,
      stocks: e.STALE_QUOTE_MS_STOCKS ?? e.STALE_QUOTE_MS,
      commodities: e.STALE_QUOTE_MS_COMMODITIES ?? e.STALE_QUOTE_MS,
    },
    cryptoConfirmDelaySeconds: e.CRYPTO_CONFIRM_DELAY_SECONDS,
    oxapayWebhookSecret: e.OXAPAY_WEBHOOK_SECRET,
    paymentsMode: e.PAYMENTS_MODE,
    allowSandboxPayments: e.ALLOW_SANDBOX_PAYMENTS,
    oxapayMerchantApiKey: e.OXAPAY_MERCHANT_API_KEY,
    oxapayPayoutApiKey: e.OXAPAY_PAYOUT_API_KEY,
    oxapayApiUrl: e.OXAPAY_API_URL.replace(/\/+$/, ''),
    oxapayTimeoutMs: e.OXAPAY_TIMEOUT_MS,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN,
    telegramBotName: e.TELEGRAM_BOT_NAME,
    seedDemoUser: e.SEED_DEMO_USER,
    riskMaxPairLossUsd: e.RISK_MAX_PAIR_LOSS_USD,
    fourEyesWithdrawalUsd: e.FOUR_EYES_WITHDRAWAL_USD,
    fourEyesWithdrawalLimits: Object.fromEntries((e.FOUR_EYES_WITHDRAWAL_LIMITS ?? '').split(',').filter(Boolean).map((pair) => pair.split(':') as [string, string])),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    nodeId: e.NODE_ID ?? `${os.hostname()}-${process.pid}`,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    trustProxy: parseTrustedProxies(e.TRUST_PROXY),
    socketCountTtlMs: e.SOCKET_COUNT_TTL_MS,
  };
}
