/**
 * Shapes shared by the operator console's machines (machines/console/*) and the services that
 * implement their actors (src/console/services). Pure data; the wire shapes themselves are
 * contract/console.ts's, which the services map onto these.
 */

import type { OperatorRole } from '../../contract/console';

/** The signed-in operator as the console needs it. */
export interface ConsoleOperator {
  id: number;
  username: string;
  role: OperatorRole;
  /** What the role may do (contract/console.ts CONSOLE_PERMISSIONS): the menus hide the rest. */
  permissions: string[];
}

export interface LoginCredentials {
  username: string;
  password: string;
  totp: string;
}

export type SortDirection = 'asc' | 'desc';

export interface TableSort {
  key: string;
  direction: SortDirection;
}

/** What one page read asks for: the list, its filters (as in the URL), sort and page. */
export interface TableQuery {
  resource: string;
  filters: Record<string, string>;
  sort: TableSort | null;
  page: number;
  pageSize: number;
}

/** One page of a list. Rows stay opaque to the machine: the screen knows their shape. */
export interface TablePage {
  rows: unknown[];
  total: number;
}

/** The outcome of a console action as the operator must see it. */
export type ActionOutcome =
  /** Done now (e.g. a small withdrawal approved, a user blocked). */
  | { kind: 'done'; detail?: Record<string, string> }
  /** Four eyes: recorded and waiting for a second operator. */
  | { kind: 'awaitingApproval'; approvalId: number | null }
  /** A one-time secret to show once (open-as-user link, a new operator's password and TOTP). */
  | { kind: 'secret'; detail: Record<string, string> };

/** A console action: which one, on what, with the operator's reason and any extra fields. */
export interface ActionRequest {
  action: string;
  target: string;
  reason: string;
  fields: Record<string, string>;
}

/** The HTTP-like status an actor's failure carries (0 when none). */
export function failureStatus(error: unknown): number {
  if (typeof error !== 'object' || error === null) return 0;
  const status: unknown = Reflect.get(error, 'status');
  return typeof status === 'number' ? status : 0;
}
