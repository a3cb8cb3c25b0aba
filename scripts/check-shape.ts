/**
 * The structural checks ESLint has no rule for, run by `npm run lint` after ESLint
 * (docs/architecture.md, "The shape checks itself"):
 *
 * 1. No import cycles in the product code (contract/, machines/, src/, server/), counting type
 *    imports and re-exports: a cycle of types still ties the files together (a change to one
 *    recompiles and re-reviews the others, and it is one `import type` away from a runtime
 *    cycle). Dynamic `import()` (lazy chunks) is not an edge.
 * 2. One file-name convention: kebab-case everywhere (`order-card.ts`, `deposit.machine.ts`),
 *    except a React component's own file and stylesheet under src/, which carry the component's
 *    PascalCase name (`OrderCard.tsx`, `OrderCard.css`), and the numbered migrations
 *    (`014_open_order_indexes.ts`).
 * 3. Each table is queried by one area only: the tables an area owns (OWNERS below) are read and
 *    written through that area's own files; everything else calls the area's service or
 *    repository. Migrations create them, and nothing else names them in a query.
 *
 * 4. No product function twice: an exported top-level function (or arrow constant) name is
 *    defined in one file of contract/, machines/, src/ and server/ only (the migrations' `up` and
 *    `down` excepted), so a helper has one home and a second copy cannot drift from the first.
 *
 * Prints what it finds and exits 1 on any problem. `--json` prints the import graph's cycles as
 * JSON (for a quick look while restructuring).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const ROOTS = ['contract', 'machines', 'src', 'server'];
const SOURCE = /\.(ts|tsx|mts)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

const allFiles = ROOTS.flatMap((r) => walk(path.join(root, r)));
const sources = allFiles.filter((f) => SOURCE.test(f) && !f.endsWith('.d.ts'));
const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');

// ---- 1. import cycles ------------------------------------------------------------------------

/** The static imports and re-exports of a file (type-only ones included), as written. */
function specifiersOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const statement of source.statements) {
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      out.push(statement.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
      const expr = statement.moduleReference.expression;
      if (ts.isStringLiteral(expr)) out.push(expr.text);
    }
  }
  return out;
}

const known = new Set(sources);
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (known.has(candidate)) return candidate;
  }
  return null;
}

const graph = new Map<string, string[]>();
for (const file of sources) {
  graph.set(file, [...new Set(specifiersOf(file).map((s) => resolve(file, s)).filter((f): f is string => f !== null))]);
}

/** Strongly connected components of more than one file (Tarjan, iterative). */
function cycles(): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (indexOf.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    indexOf.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++];
        if (!indexOf.has(to)) {
          indexOf.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, indexOf.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === indexOf.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) found.push(component.map(rel).sort());
      }
    }
  }
  return found;
}

// ---- 2. file names -------------------------------------------------------------------------

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*$/;
const MIGRATION = /^\d{3}_[a-z0-9_]+$/;

function nameProblem(file: string): string | null {
  const r = rel(file);
  const base = path.basename(file);
  const stem = base.split('.')[0];
  if (KEBAB.test(stem)) return null;
  if (r.startsWith('server/db/migrations/') && MIGRATION.test(stem)) return null;
  if (r.startsWith('src/') && /\.(tsx|css)$/.test(base) && PASCAL.test(stem)) return null;
  return `${r}: file names are kebab-case (a React component's .tsx/.css under src/: PascalCase; migrations: NNN_name)`;
}

// ---- 3. table ownership --------------------------------------------------------------------

/** Which folder (or file) may query each table. Keep in step with server/db/tables/ (checked below). */
const AUTH = 'server/domain/auth/';
const PROFILE = 'server/domain/profile/';
const LEDGER = 'server/domain/ledger.ts';
const MARKET = 'server/domain/market/';
const ORDERS = 'server/domain/orders/';
const PAYMENTS = 'server/domain/payments/';
const OWNERS: Record<string, string[]> = {
  // Auth: credentials, sessions and the flows around them (login limits, verification, resets, admin tokens).
  refresh_tokens: [AUTH],
  auth_sessions: [AUTH],
  auth_attempts: [AUTH],
  email_verifications: [AUTH],
  password_resets: [AUTH],
  admin_tokens: [AUTH],
  // The users row has two owners: auth keeps the credentials and sessions on it, profile the
  // personal fields, the avatar and the 2FA flag.
  users: [AUTH, PROFILE],
  // Profile: personal data, identity documents, the Telegram link, two-factor authentication.
  user_profiles: [PROFILE],
  documents: [PROFILE],
  document_files: [PROFILE],
  telegram_links: [PROFILE],
  telegram_link_codes: [PROFILE],
  two_factor_state: [PROFILE],
  two_factor_challenges: [PROFILE],
  two_factor_recovery_codes: [PROFILE],
  // The ledger kernel: every balance, user's or house's, moves only through its postings.
  balances: [LEDGER],
  house_balances: [LEDGER],
  ledger_entries: [LEDGER],
  ledger_transactions: [LEDGER],
  ledger_seals: [LEDGER],
  house_entries: [LEDGER],
  // Market: the pairs as operated, the series anchors, the tick log, its hash chain and the candles.
  pairs: [MARKET],
  market_series: [MARKET],
  market_candles: [MARKET],
  market_ticks: [MARKET],
  market_tick_batches: [MARKET],
  // Orders: the orders, the trigger-kept exposure per pair and the operator's per-pair risk limits.
  orders: [ORDERS],
  pair_exposure: [ORDERS],
  risk_limits: [ORDERS],
  // Payments: the method catalogue and the deposits and withdrawals.
  payment_methods: [PAYMENTS],
  payment_transactions: [PAYMENTS],
  // Alerts: the price alerts.
  price_alerts: ['server/domain/alerts/'],
  // Support: the tickets, their messages and attachments.
  support_tickets: ['server/domain/support/'],
  support_messages: ['server/domain/support/'],
  support_attachments: ['server/domain/support/'],
  // The kernels and the infrastructure: the domain events, the mail outbox, the shared secrets, the cluster's leases.
  domain_events: ['server/domain/events.ts'],
  outbox: ['server/domain/mail.ts'],
  shared_secrets: ['server/secrets.ts'],
  cluster_leases: ['server/cluster/'],
  // The operator console (issue 27): operators and their sessions, the audit chain, four-eyes requests.
  operators: ['server/domain/operators/'],
  operator_sessions: ['server/domain/operators/'],
  operator_login_failures: ['server/domain/operators/'],
  audit_log: ['server/domain/audit/'],
  approval_requests: ['server/domain/approvals/'],
};
const QUERY = /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|replaceInto|mergeInto)\(\s*['"]([a-z_]+)(?:\s+as\s+[a-z_]+)?['"]/g;
/** A table of an area's `...Tables` interface in server/db/tables/ (`  orders: OrdersTable;`). */
const TABLE = /^\s+([a-z_]+): [A-Z][A-Za-z]*Table;$/gm;

const isJsDoc = (node: ts.Node) => node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;

/**
 * `text` with every comment blanked (same length, line breaks kept, so positions and line numbers
 * still hold): a query in a doc comment's example is not a query. The comments are the trivia
 * before each token, as the TypeScript parser sees it (a `//` in a string or a template is not one).
 */
function withoutComments(file: string, text: string): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const chars = text.split('');
  const blanked = new Set<number>();
  const blank = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (blanked.has(range.pos)) continue;
      blanked.add(range.pos);
      for (let i = range.pos; i < range.end; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
    }
  };
  const visit = (node: ts.Node) => {
    // A JSDoc node's own children lie inside its comment, which the next token's trivia covers.
    if (isJsDoc(node)) return;
    blank(ts.getLeadingCommentRanges(text, node.pos));
    blank(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return chars.join('');
}

function ownershipProblems(): string[] {
  const problems: string[] = [];
  const tables = new Set<string>();
  for (const file of walk(path.join(root, 'server/db/tables')).filter((f) => SOURCE.test(f))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(TABLE)) {
      tables.add(match[1]);
      if (!OWNERS[match[1]]) problems.push(`${rel(file)}: table '${match[1]}' has no owner: add it to OWNERS in scripts/check-shape.ts`);
    }
  }
  for (const table of Object.keys(OWNERS)) {
    if (!tables.has(table)) problems.push(`scripts/check-shape.ts: OWNERS names '${table}', which server/db/tables/ does not define`);
  }
  for (const file of sources) {
    const r = rel(file);
    if (!r.startsWith('server/') || r.startsWith('server/db/migrations/')) continue;
    let text = fs.readFileSync(file, 'utf8');
    // Most files name no table at all; only those that do are parsed for their comments.
    if (!/\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|replaceInto|mergeInto)\(/.test(text)) continue;
    text = withoutComments(file, text);
    for (const match of text.matchAll(QUERY)) {
      const owners = OWNERS[match[1]];
      if (!owners) continue;
      if (!owners.some((o) => r === o || r.startsWith(o.endsWith('/') ? o : `${o}/`))) {
        const line = text.slice(0, match.index).split('\n').length;
        problems.push(`${r}:${line}: queries '${match[1]}', which ${owners.join(' / ')} owns: call that area's service or repository`);
      }
    }
  }
  return problems;
}

// ---- 4. one home per exported function ---------------------------------------------------

function exportedFunctions(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const names: string[] = [];
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && exported(statement)) names.push(statement.name.text);
    if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const decl of statement.declarationList.declarations) {
        if (ts.isIdentifier(decl.name) && decl.initializer && (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer))) names.push(decl.name.text);
      }
    }
  }
  return names;
}

function duplicateFunctions(): string[] {
  const homes = new Map<string, string[]>();
  for (const file of sources) {
    const r = rel(file);
    if (r.startsWith('server/db/migrations/')) continue;
    for (const name of exportedFunctions(file)) homes.set(name, [...(homes.get(name) ?? []), r]);
  }
  return [...homes].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: exported from ${files.join(', ')}: give it one home (or, if they differ, names that say how)`);
}

// ---- report --------------------------------------------------------------------------------

const found = cycles();
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(found, null, 2));
  process.exit(0);
}
const problems: string[] = [];
for (const component of found) {
  const members = new Set(component.map((f) => path.join(root, f)));
  const edges = component.flatMap((f) => (graph.get(path.join(root, f)) ?? []).filter((to) => members.has(to)).map((to) => `    ${f} -> ${rel(to)}`));
  problems.push(`import cycle through ${component.length} files (type imports count):\n${edges.join('\n')}`);
}
for (const file of allFiles.filter((f) => /\.(ts|tsx|mts|mjs|js|css|json)$/.test(f))) {
  const problem = nameProblem(file);
  if (problem) problems.push(problem);
}
problems.push(...ownershipProblems());
problems.push(...duplicateFunctions());

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\ncheck-shape: ${problems.length} problem(s) in ${sources.length} files`);
  process.exit(1);
}
console.log(`check-shape: ${sources.length} files, no import cycle, file names follow the convention, every table queried by its owner only, every exported function has one home`);
