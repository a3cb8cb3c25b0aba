/**
 * The operator console's API (issue 27): every request and response under /api/console/...
 * Operators are not traders: they log in with a password AND a TOTP code, hold a short server-side
 * session in the HttpOnly cookie `op_session` (Path=/api/console, SameSite=Strict, Secure on
 * https), and every state-changing request carries the header `x-console: 1` (CSRF guard: a form
 * post or an image tag from another site cannot set it). Rules: docs/operator-console.md.
 *
 *   POST /api/console/login                      {username, password, totp} -> {operator}; sets op_session
 *   POST /api/console/logout                     ends the session
 *   GET  /api/console/me                         {operator}
 *   GET  /api/console/dashboard                  DashboardSchema
 *   GET  /api/console/users                      ?q&status&sort&dir&page&per_page[&format=csv] -> UserListSchema
 *   GET  /api/console/users/:id                  UserDetailSchema
 *   POST /api/console/users/:id/block            {reason} -> {user}
 *   POST /api/console/users/:id/unblock          {reason} -> {user}
 *   POST /api/console/users/:id/open-as          {reason} -> {link, expires_at_ms}
 *   POST /api/console/users/:id/adjustments      {currency, amount, reason} -> {approval} (four eyes)
 *   GET  /api/console/kyc                        ?status&page&per_page -> KycListSchema
 *   GET  /api/console/kyc/files/:id              the file (Content-Disposition: attachment, nosniff)
 *   POST /api/console/kyc/:id/approve            {reason?} -> {document}
 *   POST /api/console/kyc/:id/reject             {reason} -> {document}
 *   GET  /api/console/payments                   ?type&status&user_id&late&page&per_page[&format=csv] -> PaymentListSchema
 *   POST /api/console/payments/:id/approve       {reason?} -> {payment} or {approval} (a large withdrawal waits for a second operator)
 *   POST /api/console/payments/:id/reject        {reason} -> {payment}
 *   GET  /api/console/approvals                  ?status&kind&page&per_page -> ApprovalListSchema
 *   POST /api/console/approvals/:id/approve      {reason?} -> {approval} (executed in the same transaction)
 *   POST /api/console/approvals/:id/reject       {reason} -> {approval}
 *   GET  /api/console/books                      BooksSchema (per currency, every account, sum 0)
 *   GET  /api/console/pnl                        ?from&to (YYYY-MM-DD) -> PnlSchema (a series per day for the chart)
 *   GET  /api/console/exposure                   ExposureSchema
 *   GET  /api/console/risk                       RiskLimitsSchema
 *   POST /api/console/risk/:pair                 {limit_usd, reason} -> {limit} or {approval} (a raise waits for a second operator)
 *   GET  /api/console/pairs                      ConsolePairsSchema
 *   POST /api/console/pairs/:pair/disable        {reason} -> {pair}
 *   POST /api/console/pairs/:pair/enable         {reason} -> {approval} (four eyes)
 *   GET  /api/console/operators                  (admin) {operators}
 *   POST /api/console/operators                  (admin) {username, role, email?} -> {operator, initial_password, totp_secret, otpauth_url}
 *   POST /api/console/operators/:id/role         (admin) {role, reason} -> {operator}
 *   POST /api/console/operators/:id/disable      (admin) {reason} -> {operator}
 *   GET  /api/console/audit                      ?action&operator&target_type&target_id&page&per_page[&format=csv] -> AuditListSchema
 *   GET  /api/console/audit/verify               {ok, checked, broken_id}
 *
 * Money in responses is integer minor units of its currency (`*_minor`, formatted with
 * contract/money.ts); money in requests is a decimal string with at most the currency's decimals.
 * Times are ms since the epoch (`*_ms`). List endpoints answer `?format=csv` with a text/csv
 * attachment whose cells never start a formula.
 */
import * as v from 'valibot';
import { CurrencyCodeSchema } from './currencies';

// ---- constants ----------------------------------------------------------------------------

export const OPERATOR_ROLES = ['support', 'compliance', 'finance', 'risk', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** The console's own cookie; scoped to the console API. */
export const OPERATOR_COOKIE = 'op_session';
export const OPERATOR_COOKIE_PATH = '/api/console';
/** Every state-changing console request carries this header with the value "1" (CSRF guard). */
export const CONSOLE_CSRF_HEADER = 'x-console';
/** A session dies after this long without a request ... */
export const OPERATOR_SESSION_IDLE_MS = 15 * 60_000;
/** ... and after this long in any case. */
export const OPERATOR_SESSION_MAX_MS = 8 * 3600_000;
/** Wrong logins (per operator and per IP) before the lock ... */
export const OPERATOR_LOCK_FAILURES = 5;
/** ... which lasts this long. */
export const OPERATOR_LOCK_MS = 15 * 60_000;
/** An open-as-user link works once within this time. */
export const OPEN_AS_TTL_MS = 15 * 60_000;

export const CONSOLE_PAGE_DEFAULT = 20;
export const CONSOLE_PAGE_MAX = 100;
/** A CSV export holds at most this many rows. */
export const CONSOLE_EXPORT_CAP = 10_000;

export const APPROVAL_KINDS = ['withdrawal', 'risk_limit_raise', 'balance_adjustment', 'pair_enable'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ['pending', 'rejected', 'executed'] as const;
export type ApprovalRequestStatus = (typeof APPROVAL_STATUSES)[number];

export const AUDIT_SOURCES = ['console', 'cli'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

/**
 * What each role may do (admin may do everything). The server checks these on every route; the
 * SPA reads them only to hide what would be refused.
 */
export const CONSOLE_PERMISSIONS = {
  /** dashboard, users list and detail (read-only) */
  'users.read': ['support', 'compliance', 'finance', 'risk'],
  'users.block': ['compliance'],
  'users.open_as': ['support'],
  'kyc.read': ['compliance'],
  'kyc.decide': ['compliance'],
  'payments.read': ['finance'],
  'payments.decide': ['finance'],
  'books.read': ['finance', 'risk'],
  'balance.adjust': ['finance'],
  'risk.read': ['risk', 'compliance'],
  'risk.write': ['risk'],
  'pairs.write': ['risk'],
  /** the approvals list: any role sees requests it can decide */
  'approvals.read': ['finance', 'risk'],
  'audit.read': ['compliance'],
  'operators.manage': [],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type ConsolePermission = keyof typeof CONSOLE_PERMISSIONS;

/** Whether `role` holds `permission` (admin holds every one). */
export function roleAllows(role: OperatorRole, permission: ConsolePermission): boolean {
  return role === 'admin' || (CONSOLE_PERMISSIONS[permission] as readonly OperatorRole[]).includes(role);
}

/** Which approval kinds each permission decides. */
export const APPROVAL_PERMISSION: Record<ApprovalKind, ConsolePermission> = {
  withdrawal: 'payments.decide',
  balance_adjustment: 'balance.adjust',
  risk_limit_raise: 'risk.write',
  pair_enable: 'pairs.write',
};

/** Texts the console's server sends (the SPA translates them through src/i18n/server-texts.ts). */
export const ConsoleText = {
  loginFailed: 'Wrong username, password or code',
  locked: 'Too many failed logins. Try again in 15 minutes',
  sessionExpired: 'Your console session has ended. Please log in again',
  csrfMissing: 'Console requests must carry the x-console header',
  operatorExists: 'An operator with this username already exists',
  operatorNotFound: 'Operator not found',
  operatorDisabled: 'This operator is disabled',
  lastAdmin: 'The last active admin cannot be disabled or demoted',
  selfChange: 'Operators cannot change their own role or disable themselves',
  userNotFound: 'User not found',
  alreadyBlocked: 'The user is already blocked',
  notBlocked: 'The user is not blocked',
  userBlocked: 'This account is blocked. Contact support',
  reasonRequired: 'A reason is required',
  requesterCannotApprove: 'The operator who asked cannot approve the request',
  approvalNotFound: 'Approval request not found',
  approvalDecided: 'This request has already been decided',
  approvalStale: 'The request no longer applies: nothing was changed',
  documentNotFound: 'Document not found',
  fileNotFound: 'File not found',
  pairNotFound: 'Pair not found',
  pairAlreadyEnabled: 'The pair is already enabled',
  pairAlreadyDisabled: 'The pair is already disabled',
  limitNotRaise: 'The new limit is not above the current one',
  adjustmentNegative: 'The adjustment would make the balance negative',
  amountInvalid: 'Amount must be a non-zero decimal number with at most the currency decimals',
  /** An admin (open-as-user) session may look but not move money. */
  adminReadOnly: 'This is a read-only support session: orders, deposits and withdrawals are disabled',
  roleInvalid: 'Role must be one of support, compliance, finance, risk, admin',
  dateInvalid: 'Dates must be YYYY-MM-DD',
} as const;

// ---- shared pieces --------------------------------------------------------------------------

const reasonText = (required: boolean) =>
  required
    ? v.pipe(v.string(ConsoleText.reasonRequired), v.trim(), v.minLength(1, ConsoleText.reasonRequired), v.maxLength(500, 'A reason is at most 500 characters'))
    : v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500, 'A reason is at most 500 characters')), '');

/** `{reason}` required: block, reject, disable, open-as... */
export const ReasonSchema = v.strictObject({ reason: reasonText(true) }, 'Unknown field');
export type ReasonInput = v.InferOutput<typeof ReasonSchema>;
/** `{reason?}`: approve. */
export const OptionalReasonSchema = v.strictObject({ reason: reasonText(false) }, 'Unknown field');
export type OptionalReasonInput = v.InferOutput<typeof OptionalReasonSchema>;

const intParam = (name: string, min: number, max: number, def: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
    String(def),
  );
const pageFields = {
  page: intParam('page', 1, 1_000_000, 1),
  per_page: intParam('per_page', 1, CONSOLE_PAGE_MAX, CONSOLE_PAGE_DEFAULT),
  format: v.optional(v.picklist(['json', 'csv'], 'format must be json or csv'), 'json'),
};

export const PaginationSchema = v.object({ page: v.number(), per_page: v.number(), total: v.number() });
export type Pagination = v.InferOutput<typeof PaginationSchema>;

export const OperatorRoleSchema = v.picklist(OPERATOR_ROLES, ConsoleText.roleInvalid);

// ---- login and operators --------------------------------------------------------------------

export const OperatorLoginSchema = v.strictObject(
  {
    /** username or email */
    username: v.pipe(v.string('Username is required'), v.trim(), v.minLength(1, 'Username is required'), v.maxLength(254, ConsoleText.loginFailed)),
    password: v.pipe(v.string('Password is required'), v.minLength(1, 'Password is required'), v.maxLength(256, ConsoleText.loginFailed)),
    totp: v.pipe(v.string('Code is required'), v.trim(), v.regex(/^\d{6}$/, 'The code is 6 digits')),
  },
  'Unknown field',
);
export type OperatorLoginInput = v.InferOutput<typeof OperatorLoginSchema>;

export const OperatorSchema = v.object({
  id: v.number(),
  username: v.string(),
  email: v.nullable(v.string()),
  role: OperatorRoleSchema,
  disabled_at_ms: v.nullable(v.number()),
  locked_until_ms: v.nullable(v.number()),
  created_at_ms: v.number(),
  last_login_at_ms: v.nullable(v.number()),
});
export type Operator = v.InferOutput<typeof OperatorSchema>;

export const OperatorMeSchema = v.object({
  operator: OperatorSchema,
  /** The permissions the role holds (CONSOLE_PERMISSIONS), for the SPA's menus. */
  permissions: v.array(v.string()),
  session_expires_at_ms: v.number(),
});
export type OperatorMe = v.InferOutput<typeof OperatorMeSchema>;

const USERNAME = /^[a-z0-9][a-z0-9._-]{2,31}$/;
export const OperatorUsernameSchema = v.pipe(
  v.string('Username is required'),
  v.trim(),
  v.toLowerCase(),
  v.regex(USERNAME, 'Username: 3 to 32 characters, letters, digits, dot, dash or underscore'),
);

export const CreateOperatorSchema = v.strictObject(
  {
    username: OperatorUsernameSchema,
    role: OperatorRoleSchema,
    email: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.email('Email is not valid'), v.maxLength(254)))),
  },
  'Unknown field',
);
export type CreateOperatorInput = v.InferOutput<typeof CreateOperatorSchema>;

/** What creating an operator answers once: the initial password and the TOTP enrolment. */
export const CreatedOperatorSchema = v.object({
  operator: OperatorSchema,
  initial_password: v.string(),
  totp_secret: v.string(),
  otpauth_url: v.string(),
});
export type CreatedOperator = v.InferOutput<typeof CreatedOperatorSchema>;

export const ChangeRoleSchema = v.strictObject({ role: OperatorRoleSchema, reason: reasonText(true) }, 'Unknown field');
export type ChangeRoleInput = v.InferOutput<typeof ChangeRoleSchema>;

export const OperatorListSchema = v.object({ operators: v.array(OperatorSchema) });
export type OperatorList = v.InferOutput<typeof OperatorListSchema>;

// ---- dashboard ------------------------------------------------------------------------------

/** Per currency, minor units. */
const PerCurrencySchema = v.record(v.string(), v.number());

export const DashboardSchema = v.object({
  /** UTC day the figures are for (YYYY-MM-DD). */
  day: v.string(),
  deposits: v.object({ count: v.number(), amounts: PerCurrencySchema }),
  withdrawals: v.object({ count: v.number(), amounts: PerCurrencySchema }),
  /** Stakes minus payouts of real orders closed today (positive: the house won). */
  house_result: PerCurrencySchema,
  /** Worst-case house loss of open real orders, USD cents, summed over pairs. */
  open_exposure_usd_minor: v.number(),
  queues: v.object({
    kyc_pending: v.number(),
    withdrawals_pending: v.number(),
    approvals_pending: v.number(),
    /** 0 until the support center lands. */
    support_open: v.number(),
  }),
  health: v.object({
    feed: v.object({ ok: v.boolean(), last_tick_age_ms: v.nullable(v.number()), stale_pairs: v.number() }),
    settlement: v.object({ ok: v.boolean(), open_orders: v.number(), overdue_orders: v.number() }),
  }),
});
export type Dashboard = v.InferOutput<typeof DashboardSchema>;

// ---- users ----------------------------------------------------------------------------------

export const USER_SORTS = ['id', 'created_at', 'email', 'username'] as const;
export const USER_STATUSES = ['all', 'active', 'blocked'] as const;

export const UserListQuerySchema = v.strictObject(
  {
    /** id, email, username or nickname (part of) */
    q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254, 'Search is at most 254 characters')), ''),
    status: v.optional(v.picklist(USER_STATUSES, 'status must be all, active or blocked'), 'all'),
    sort: v.optional(v.picklist(USER_SORTS, 'Unknown sort'), 'id'),
    dir: v.optional(v.picklist(['asc', 'desc'], 'dir must be asc or desc'), 'desc'),
    ...pageFields,
  },
  'Unknown field',
);
export type UserListQuery = v.InferOutput<typeof UserListQuerySchema>;

export const ConsoleUserSchema = v.object({
  id: v.number(),
  username: v.string(),
  email: v.string(),
  nickname: v.nullable(v.string()),
  first_name: v.string(),
  last_name: v.string(),
  currency: v.string(),
  created_at_ms: v.number(),
  email_verified: v.boolean(),
  two_factor_enabled: v.boolean(),
  blocked_at_ms: v.nullable(v.number()),
  blocked_reason: v.nullable(v.string()),
});
export type ConsoleUser = v.InferOutput<typeof ConsoleUserSchema>;

export const UserListSchema = v.object({ users: v.array(ConsoleUserSchema), pagination: PaginationSchema });
export type UserList = v.InferOutput<typeof UserListSchema>;

export const ConsoleBalanceSchema = v.object({ currency: v.string(), account: v.string(), amount_minor: v.number() });
export const ConsoleOrderSchema = v.object({
  id: v.number(),
  pair: v.string(),
  direction: v.string(),
  account: v.string(),
  currency: v.string(),
  stake_minor: v.number(),
  payout_minor: v.nullable(v.number()),
  status: v.string(),
  created_at_ms: v.number(),
  expires_at_ms: v.number(),
});
export const ConsolePaymentSchema = v.object({
  id: v.number(),
  user_id: v.number(),
  type: v.string(),
  status: v.string(),
  method: v.string(),
  currency: v.string(),
  amount_minor: v.number(),
  /** Where a withdrawal goes (shown whole to finance). */
  requisites: v.nullable(v.string()),
  error_message: v.nullable(v.string()),
  late_payment: v.boolean(),
  /** A withdrawal over the four-eyes threshold. */
  needs_second_approval: v.boolean(),
  created_at_ms: v.number(),
  updated_at_ms: v.number(),
});
export type ConsolePayment = v.InferOutput<typeof ConsolePaymentSchema>;
export const ConsoleDocumentFileSchema = v.object({ id: v.number(), name: v.string(), mime: v.string(), size: v.number() });
export const ConsoleDocumentSchema = v.object({
  id: v.number(),
  user_id: v.number(),
  type: v.string(),
  status: v.string(),
  rejection_reason: v.nullable(v.string()),
  files: v.array(ConsoleDocumentFileSchema),
  created_at_ms: v.number(),
  reviewed_at_ms: v.nullable(v.number()),
});
export type ConsoleDocument = v.InferOutput<typeof ConsoleDocumentSchema>;

export const UserDetailSchema = v.object({
  user: ConsoleUserSchema,
  balances: v.array(ConsoleBalanceSchema),
  orders: v.array(ConsoleOrderSchema),
  transactions: v.array(ConsolePaymentSchema),
  documents: v.array(ConsoleDocumentSchema),
  /** The per-pair risk limits and the default (USD cents); user-level limits come with issue 26's responsible trading. */
  limits: v.object({ default_pair_loss_usd_minor: v.number() }),
});
export type UserDetail = v.InferOutput<typeof UserDetailSchema>;

export const OpenAsResultSchema = v.object({ link: v.string(), expires_at_ms: v.number() });
export type OpenAsResult = v.InferOutput<typeof OpenAsResultSchema>;

/** A manual balance adjustment request (four eyes): signed decimal, real account. */
export const AdjustmentSchema = v.strictObject(
  {
    currency: CurrencyCodeSchema,
    amount: v.pipe(v.string(ConsoleText.amountInvalid), v.trim(), v.regex(/^-?\d{1,12}(\.\d{1,8})?$/, ConsoleText.amountInvalid)),
    reason: reasonText(true),
  },
  'Unknown field',
);
export type AdjustmentInput = v.InferOutput<typeof AdjustmentSchema>;

// ---- KYC ------------------------------------------------------------------------------------

export const KycQuerySchema = v.strictObject(
  {
    status: v.optional(v.picklist(['pending', 'approved', 'rejected', 'all'], 'Unknown status'), 'pending'),
    ...pageFields,
  },
  'Unknown field',
);
export type KycQuery = v.InferOutput<typeof KycQuerySchema>;
export const KycListSchema = v.object({ documents: v.array(ConsoleDocumentSchema), pagination: PaginationSchema });
export type KycList = v.InferOutput<typeof KycListSchema>;

// ---- payments -------------------------------------------------------------------------------

export const PaymentQuerySchema = v.strictObject(
  {
    type: v.optional(v.picklist(['deposit', 'withdrawal', 'all'], 'Unknown type'), 'all'),
    status: v.optional(v.picklist(['pending', 'processing', 'approved', 'failed', 'expired', 'cancelled', 'all'], 'Unknown status'), 'all'),
    user_id: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, 'user_id must be a user id'), v.transform(Number))),
    late: v.optional(v.picklist(['0', '1'], 'late must be 0 or 1'), '0'),
    ...pageFields,
  },
  'Unknown field',
);
export type PaymentQuery = v.InferOutput<typeof PaymentQuerySchema>;
export const PaymentListSchema = v.object({ payments: v.array(ConsolePaymentSchema), pagination: PaginationSchema });
export type PaymentList = v.InferOutput<typeof PaymentListSchema>;

// ---- four eyes ------------------------------------------------------------------------------

export const ApprovalSchema = v.object({
  id: v.number(),
  kind: v.picklist(APPROVAL_KINDS),
  status: v.picklist(APPROVAL_STATUSES),
  /** What will be done (kind-specific: payment id, user/currency/amount_minor, pair/limit). */
  payload: v.record(v.string(), v.unknown()),
  target_type: v.string(),
  target_id: v.string(),
  requested_by: v.number(),
  requested_by_name: v.string(),
  request_reason: v.string(),
  decided_by: v.nullable(v.number()),
  decided_by_name: v.nullable(v.string()),
  decision_reason: v.nullable(v.string()),
  created_at_ms: v.number(),
  decided_at_ms: v.nullable(v.number()),
});
export type Approval = v.InferOutput<typeof ApprovalSchema>;

export const ApprovalQuerySchema = v.strictObject(
  {
    status: v.optional(v.picklist([...APPROVAL_STATUSES, 'all'], 'Unknown status'), 'pending'),
    kind: v.optional(v.picklist([...APPROVAL_KINDS, 'all'], 'Unknown kind'), 'all'),
    ...pageFields,
  },
  'Unknown field',
);
export type ApprovalQuery = v.InferOutput<typeof ApprovalQuerySchema>;
export const ApprovalListSchema = v.object({ approvals: v.array(ApprovalSchema), pagination: PaginationSchema });
export type ApprovalList = v.InferOutput<typeof ApprovalListSchema>;

/** An action that needs four eyes answers the request it made instead of the result. */
export const PaymentDecisionSchema = v.object({ payment: v.nullable(ConsolePaymentSchema), approval: v.nullable(ApprovalSchema) });
export type PaymentDecision = v.InferOutput<typeof PaymentDecisionSchema>;

// ---- books, P&L, exposure, risk, pairs ---------------------------------------------------------

export const BooksSchema = v.object({
  currencies: v.record(v.string(), v.object({ accounts: PerCurrencySchema, sum: v.number() })),
});
export type Books = v.InferOutput<typeof BooksSchema>;

const DAY = v.pipe(v.string(ConsoleText.dateInvalid), v.regex(/^\d{4}-\d{2}-\d{2}$/, ConsoleText.dateInvalid));
export const PnlQuerySchema = v.strictObject({ from: v.optional(DAY), to: v.optional(DAY), format: pageFields.format }, 'Unknown field');
export type PnlQuery = v.InferOutput<typeof PnlQuerySchema>;
export const PnlPointSchema = v.object({
  day: v.string(),
  currency: v.string(),
  orders: v.number(),
  stakes_minor: v.number(),
  payouts_minor: v.number(),
  house_result_minor: v.number(),
});
export const PnlSchema = v.object({
  from: v.string(),
  to: v.string(),
  /** One point per day and currency (real orders), days without orders included as 0: the chart's series. */
  series: v.array(PnlPointSchema),
  totals: PerCurrencySchema,
});
export type Pnl = v.InferOutput<typeof PnlSchema>;

export const ExposurePairSchema = v.object({
  pair: v.string(),
  worst_case_usd_minor: v.number(),
  limit_usd_minor: v.number(),
  directions: v.record(v.string(), v.object({ count: v.number(), stakes: PerCurrencySchema, payouts: PerCurrencySchema })),
});
export const ExposureSchema = v.object({ pairs: v.array(ExposurePairSchema) });
export type Exposure = v.InferOutput<typeof ExposureSchema>;

export const RiskLimitsSchema = v.object({
  default_usd_minor: v.number(),
  pairs: v.array(v.object({ pair: v.string(), limit_usd_minor: v.number(), updated_at_ms: v.number() })),
});
export type RiskLimits = v.InferOutput<typeof RiskLimitsSchema>;
export const SetRiskLimitSchema = v.strictObject(
  {
    limit_usd: v.pipe(v.string('Limit is required'), v.trim(), v.regex(/^\d{1,12}(\.\d{1,2})?$/, 'The limit is an amount in USD with at most 2 decimals')),
    reason: reasonText(true),
  },
  'Unknown field',
);
export type SetRiskLimitInput = v.InferOutput<typeof SetRiskLimitSchema>;
export const PairParamSchema = v.object({ pair: v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{3,20}$/, ConsoleText.pairNotFound), v.toUpperCase()) });

export const ConsolePairSchema = v.object({ code: v.string(), human_code: v.string(), category: v.string(), enabled: v.boolean() });
export const ConsolePairsSchema = v.object({ pairs: v.array(ConsolePairSchema) });
export type ConsolePairs = v.InferOutput<typeof ConsolePairsSchema>;

/** A change that may or may not need four eyes: the result when done at once, else the request. */
export const MaybeApprovalSchema = v.object({ done: v.boolean(), approval: v.nullable(ApprovalSchema) });
export type MaybeApproval = v.InferOutput<typeof MaybeApprovalSchema>;

// ---- audit ----------------------------------------------------------------------------------

export const AuditEntrySchema = v.object({
  id: v.number(),
  operator_id: v.nullable(v.number()),
  operator_name: v.string(),
  role: v.string(),
  action: v.string(),
  target_type: v.nullable(v.string()),
  target_id: v.nullable(v.string()),
  reason: v.nullable(v.string()),
  before: v.unknown(),
  after: v.unknown(),
  ip: v.nullable(v.string()),
  source: v.picklist(AUDIT_SOURCES),
  os_user: v.nullable(v.string()),
  created_at_ms: v.number(),
  hash: v.string(),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;

export const AuditQuerySchema = v.strictObject(
  {
    action: v.optional(v.pipe(v.string(), v.maxLength(64))),
    operator: v.optional(v.pipe(v.string(), v.maxLength(64))),
    target_type: v.optional(v.pipe(v.string(), v.maxLength(32))),
    target_id: v.optional(v.pipe(v.string(), v.maxLength(64))),
    ...pageFields,
  },
  'Unknown field',
);
export type AuditQuery = v.InferOutput<typeof AuditQuerySchema>;
export const AuditListSchema = v.object({ entries: v.array(AuditEntrySchema), pagination: PaginationSchema });
export type AuditList = v.InferOutput<typeof AuditListSchema>;

export const AuditVerifySchema = v.object({ ok: v.boolean(), checked: v.number(), broken_id: v.nullable(v.number()) });
export type AuditVerify = v.InferOutput<typeof AuditVerifySchema>;
