/**
 * The console API as the console's machines use it (contract/console.ts is the wire): the
 * lists behind the one table machine (`resource` -> path, allowed filters, rows), the records
 * behind the record machine, and the actions behind the action machine, each mapped to what
 * the operator must see (done / awaiting a second approval / a secret shown once).
 */
import * as v from 'valibot';
import {
  ApprovalListSchema,
  ApprovalSchema,
  AuditListSchema,
  AuditVerifySchema,
  BooksSchema,
  ConsolePairSchema,
  ConsolePairsSchema,
  ConsolePaymentSchema,
  ConsoleUserSchema,
  CreatedOperatorSchema,
  DashboardSchema,
  ExposureSchema,
  KycListSchema,
  MaybeApprovalSchema,
  OpenAsResultSchema,
  OperatorListSchema,
  OperatorMeSchema,
  OperatorSchema,
  PaymentDecisionSchema,
  PaymentListSchema,
  PnlSchema,
  RiskLimitsSchema,
  UserDetailSchema,
  UserListSchema,
  ConsoleDocumentSchema,
  type ConsolePermission,
} from '../../../contract/console';
import type { ActionOutcome, ActionRequest, ConsoleOperator, LoginCredentials, TablePage, TableQuery } from '../../../machines/console/console.types';
import type { RecordQuery } from '../../../machines/console/console-record.machine';
import type { ConsoleHttp } from './console-http';

const API = '/api/console';

export type ListResource = 'users' | 'kyc' | 'payments' | 'approvals' | 'audit' | 'operators' | 'pairs' | 'risk';

interface ListSpec {
  path: string;
  /** Query parameters the server accepts besides paging (anything else is refused). */
  filters: readonly string[];
  /** Server-side sort (users only); other lists are sorted here, on the page they hold. */
  serverSort: boolean;
  /** A list the server answers whole (no paging): paged and sorted here. */
  whole: boolean;
  read(http: ConsoleHttp, query: Record<string, string | number | undefined>): Promise<{ rows: unknown[]; total: number }>;
}

const paged = <S extends v.GenericSchema>(schema: S, path: string, rows: (d: v.InferOutput<S>) => unknown[], total: (d: v.InferOutput<S>) => number) =>
  async (http: ConsoleHttp, query: Record<string, string | number | undefined>) => {
    const data = await http.data(schema, path, { query });
    return { rows: rows(data), total: total(data) };
  };

export const LISTS: Record<ListResource, ListSpec> = {
  users: { path: `${API}/users`, filters: ['q', 'status'], serverSort: true, whole: false, read: paged(UserListSchema, `${API}/users`, (d) => d.users, (d) => d.pagination.total) },
  kyc: { path: `${API}/kyc`, filters: ['status'], serverSort: false, whole: false, read: paged(KycListSchema, `${API}/kyc`, (d) => d.documents, (d) => d.pagination.total) },
  payments: {
    path: `${API}/payments`,
    filters: ['type', 'status', 'user_id', 'late'],
    serverSort: false,
    whole: false,
    read: paged(PaymentListSchema, `${API}/payments`, (d) => d.payments, (d) => d.pagination.total),
  },
  approvals: { path: `${API}/approvals`, filters: ['status', 'kind'], serverSort: false, whole: false, read: paged(ApprovalListSchema, `${API}/approvals`, (d) => d.approvals, (d) => d.pagination.total) },
  audit: {
    path: `${API}/audit`,
    filters: ['action', 'operator', 'target_type', 'target_id'],
    serverSort: false,
    whole: false,
    read: paged(AuditListSchema, `${API}/audit`, (d) => d.entries, (d) => d.pagination.total),
  },
  operators: { path: `${API}/operators`, filters: [], serverSort: false, whole: true, read: paged(OperatorListSchema, `${API}/operators`, (d) => d.operators, (d) => d.operators.length) },
  pairs: { path: `${API}/pairs`, filters: [], serverSort: false, whole: true, read: paged(ConsolePairsSchema, `${API}/pairs`, (d) => d.pairs, (d) => d.pairs.length) },
  risk: { path: `${API}/risk`, filters: [], serverSort: false, whole: true, read: paged(RiskLimitsSchema, `${API}/risk`, (d) => d.pairs, (d) => d.pairs.length) },
};

function listSpec(resource: string): ListSpec {
  const spec = (LISTS as Record<string, ListSpec | undefined>)[resource];
  if (!spec) throw new Error(`Unknown console list "${resource}"`);
  return spec;
}

/** The query string a list read (or its export) sends: only what the server accepts. */
export function consoleListQuery(query: TableQuery, spec: ListSpec, format: 'json' | 'csv' = 'json'): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const name of spec.filters) if (query.filters[name]) out[name] = query.filters[name];
  if (spec.serverSort && query.sort) {
    out.sort = query.sort.key;
    out.dir = query.sort.direction;
  }
  if (!spec.whole) {
    out.page = format === 'csv' ? undefined : query.page;
    out.per_page = format === 'csv' ? undefined : query.pageSize;
  }
  if (format === 'csv') out.format = 'csv';
  return out;
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

/** Rows sorted by a column (lists the server does not sort). */
export function sortRows(rows: unknown[], sort: TableQuery['sort']): unknown[] {
  if (!sort) return rows;
  const sign = sort.direction === 'asc' ? 1 : -1;
  const key = (row: unknown) => (typeof row === 'object' && row !== null ? Reflect.get(row, sort.key) : undefined);
  return [...rows].sort((a, b) => sign * compare(key(a), key(b)));
}

export async function fetchPage(http: ConsoleHttp, query: TableQuery): Promise<TablePage> {
  const spec = listSpec(query.resource);
  const { rows, total } = await spec.read(http, consoleListQuery(query, spec));
  if (!spec.whole) return { rows: spec.serverSort ? rows : sortRows(rows, query.sort), total };
  const sorted = sortRows(rows, query.sort);
  const start = (query.page - 1) * query.pageSize;
  return { rows: sorted.slice(start, start + query.pageSize), total };
}

/** The list as CSV (the server's ?format=csv), handed to the browser as a download. */
export async function exportCsv(http: ConsoleHttp, query: TableQuery, save: (blob: Blob, name: string) => void): Promise<void> {
  const spec = listSpec(query.resource);
  const { blob, name } = await http.file(spec.path, consoleListQuery(query, spec, 'csv'));
  save(blob, name);
}

// ---- records --------------------------------------------------------------------------------

export async function fetchRecord(http: ConsoleHttp, query: RecordQuery): Promise<unknown> {
  switch (query.resource) {
    case 'dashboard':
      return http.data(DashboardSchema, `${API}/dashboard`);
    case 'user':
      return http.data(UserDetailSchema, `${API}/users/${encodeURIComponent(query.params.id ?? '')}`);
    case 'books':
      return http.data(BooksSchema, `${API}/books`);
    case 'pnl':
      return http.data(PnlSchema, `${API}/pnl`, { query: { from: query.params.from || undefined, to: query.params.to || undefined } });
    case 'exposure':
      return http.data(ExposureSchema, `${API}/exposure`);
    case 'riskLimits':
      return http.data(RiskLimitsSchema, `${API}/risk`);
    default:
      throw new Error(`Unknown console record "${query.resource}"`);
  }
}

// ---- session --------------------------------------------------------------------------------

function toOperator(me: v.InferOutput<typeof OperatorMeSchema>): ConsoleOperator {
  return { id: me.operator.id, username: me.operator.username, role: me.operator.role, permissions: me.permissions };
}

export async function loadOperator(http: ConsoleHttp): Promise<ConsoleOperator | null> {
  try {
    return toOperator(await http.data(OperatorMeSchema, `${API}/me`, { sessionCall: false }));
  } catch (error) {
    if (typeof error === 'object' && error !== null && Reflect.get(error, 'status') === 401) return null;
    throw error;
  }
}

export async function logIn(http: ConsoleHttp, credentials: LoginCredentials): Promise<ConsoleOperator> {
  await http.data(v.object({ operator: OperatorSchema }), `${API}/login`, { method: 'POST', body: { ...credentials }, sessionCall: false });
  // The login answers the operator; /me adds the role's permissions for the menus.
  const me = await loadOperator(http);
  if (!me) throw new Error('console.login.failed');
  return me;
}

export async function logOut(http: ConsoleHttp): Promise<void> {
  await http.data(v.unknown(), `${API}/logout`, { method: 'POST', body: {}, sessionCall: false });
}

// ---- actions --------------------------------------------------------------------------------

/** Every action the console offers, the permission it needs and the call it makes. */
export const ACTION_PERMISSIONS: Record<string, ConsolePermission> = {
  'user.block': 'users.block',
  'user.unblock': 'users.block',
  'user.openAs': 'users.open_as',
  'user.adjust': 'balance.adjust',
  'kyc.approve': 'kyc.decide',
  'kyc.reject': 'kyc.decide',
  'payment.approve': 'payments.decide',
  'payment.reject': 'payments.decide',
  'approval.approve': 'approvals.read',
  'approval.reject': 'approvals.read',
  'risk.set': 'risk.write',
  'pair.enable': 'pairs.write',
  'pair.disable': 'pairs.write',
  'operator.create': 'operators.manage',
  'operator.role': 'operators.manage',
  'operator.disable': 'operators.manage',
  'audit.verify': 'audit.read',
};

const done = (detail?: Record<string, string>): ActionOutcome => (detail ? { kind: 'done', detail } : { kind: 'done' });
const waiting = (approval: v.InferOutput<typeof ApprovalSchema>): ActionOutcome => ({ kind: 'awaitingApproval', approvalId: approval.id });

export async function performAction(http: ConsoleHttp, request: ActionRequest, qrCode: (text: string) => Promise<string>): Promise<ActionOutcome> {
  const id = encodeURIComponent(request.target);
  const post = <S extends v.GenericSchema>(schema: S, path: string, body: Record<string, unknown>) => http.data(schema, `${API}${path}`, { method: 'POST', body });
  const reason = request.reason;
  switch (request.action) {
    case 'user.block':
      await post(v.object({ user: ConsoleUserSchema }), `/users/${id}/block`, { reason });
      return done();
    case 'user.unblock':
      await post(v.object({ user: ConsoleUserSchema }), `/users/${id}/unblock`, { reason });
      return done();
    case 'user.openAs': {
      const result = await post(OpenAsResultSchema, `/users/${id}/open-as`, { reason });
      const link = new URL(result.link, window.location.origin).href;
      return { kind: 'secret', detail: { link, expiresAt: String(result.expires_at_ms) } };
    }
    case 'user.adjust': {
      const result = await post(v.object({ approval: ApprovalSchema }), `/users/${id}/adjustments`, {
        currency: request.fields.currency ?? '',
        amount: request.fields.amount ?? '',
        reason,
      });
      return waiting(result.approval);
    }
    case 'kyc.approve':
      await post(v.object({ document: ConsoleDocumentSchema }), `/kyc/${id}/approve`, { reason });
      return done();
    case 'kyc.reject':
      await post(v.object({ document: ConsoleDocumentSchema }), `/kyc/${id}/reject`, { reason });
      return done();
    case 'payment.approve': {
      const result = await post(PaymentDecisionSchema, `/payments/${id}/approve`, { reason });
      return result.approval && result.approval.status === 'pending' ? waiting(result.approval) : done();
    }
    case 'payment.reject':
      await post(v.object({ payment: ConsolePaymentSchema }), `/payments/${id}/reject`, { reason });
      return done();
    case 'approval.approve':
      await post(v.object({ approval: ApprovalSchema }), `/approvals/${id}/approve`, { reason });
      return done();
    case 'approval.reject':
      await post(v.object({ approval: ApprovalSchema }), `/approvals/${id}/reject`, { reason });
      return done();
    case 'risk.set': {
      const result = await post(MaybeApprovalSchema, `/risk/${id}`, { limit_usd: request.fields.limit ?? '', reason });
      return !result.done && result.approval ? waiting(result.approval) : done();
    }
    case 'pair.disable':
      await post(v.object({ pair: ConsolePairSchema }), `/pairs/${id}/disable`, { reason });
      return done();
    case 'pair.enable': {
      const result = await post(v.object({ approval: v.nullable(ApprovalSchema) }), `/pairs/${id}/enable`, { reason });
      return result.approval && result.approval.status === 'pending' ? waiting(result.approval) : done();
    }
    case 'operator.create': {
      const email = request.fields.email?.trim();
      const result = await post(CreatedOperatorSchema, `/operators`, { username: request.fields.username ?? '', role: request.fields.role ?? '', ...(email ? { email } : {}) });
      return {
        kind: 'secret',
        detail: {
          username: result.operator.username,
          role: result.operator.role,
          password: result.initial_password,
          totpSecret: result.totp_secret,
          otpauthUrl: result.otpauth_url,
          qr: await qrCode(result.otpauth_url),
        },
      };
    }
    case 'operator.role':
      await post(v.object({ operator: OperatorSchema }), `/operators/${id}/role`, { role: request.fields.role ?? '', reason });
      return done();
    case 'operator.disable':
      await post(v.object({ operator: OperatorSchema }), `/operators/${id}/disable`, { reason });
      return done();
    case 'audit.verify': {
      const result = await http.data(AuditVerifySchema, `${API}/audit/verify`);
      return done({ ok: String(result.ok), checked: String(result.checked), brokenId: result.broken_id === null ? '' : String(result.broken_id) });
    }
    default:
      throw new Error(`Unknown console action "${request.action}"`);
  }
}
