/**
 * Reporter of `npm run test:paths`: prints ONE path-coverage table for every machine of
 * scripts/machines-registry.ts after all test files ran (in registry order, whatever order the
 * workers finished in), and fails the run (exit code 1) when a machine is below 100 % of its
 * states or transitions, when a registered machine got no path test in a full run, or when a
 * path test reports under a name the registry does not know.
 *
 * The numbers come from tests/machines/harness.ts through the setup file collector.ts.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { MACHINES, REPO_ROOT } from '../../../scripts/machines-registry';
import { isComplete, mergeRows, type FileCoverageRow, type MachineCoverage } from './rows';

const pct = (part: number, whole: number) => (whole === 0 ? '100.0' : ((100 * part) / whole).toFixed(1));

/** Every path-test file a full run must include. */
function machineTestFiles(): string[] {
  return readdirSync(join(REPO_ROOT, 'tests/machines'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `tests/machines/${f}`)
    .sort();
}

export interface CoverageVerdict {
  lines: string[];
  failures: string[];
}

/**
 * The table and the failures for a run. `fullRun`: every tests/machines/*.test.ts ran, so a
 * registered machine without rows has no path test (in a partial run it was simply not run).
 */
export function coverageVerdict(rows: Map<string, MachineCoverage>, fullRun: boolean): CoverageVerdict {
  const failures: string[] = [];
  const header = ['machine', 'states', 'transitions', 'paths', 'shortest', 'simple', 'edge', 'result'];
  const table: string[][] = [];
  const known = new Set(MACHINES.map((m) => m.name));
  for (const { name } of MACHINES) {
    const row = rows.get(name);
    if (!row) {
      if (!fullRun) continue;
      table.push([name, '-', '-', '0', '-', '-', '-', 'FAIL no path test']);
      failures.push(`${name}: no path test replayed it (expected assertFullCoverage('${name}') in tests/machines/)`);
      continue;
    }
    table.push(rowCells(row));
    if (!isComplete(row)) failures.push(describeGap(row));
  }
  for (const row of [...rows.values()].filter((r) => !known.has(r.machine)).sort((a, b) => a.machine.localeCompare(b.machine))) {
    table.push(rowCells(row, 'FAIL not in registry'));
    failures.push(`${row.machine} (${row.files.join(', ')}): path model name not in scripts/machines-registry.ts`);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const format = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const total = table.length;
  const passing = table.filter((r) => r[7] === 'ok').length;
  const lines = [
    '',
    `Machine path coverage: ${passing}/${total} machines at 100 % of states and transitions${fullRun ? '' : ' (partial run: only the machines whose tests ran)'}`,
    format(header),
    format(widths.map((w) => '-'.repeat(w))),
    ...table.map(format),
    ...failures.map((f) => `  FAIL ${f}`),
    '',
  ];
  return { lines, failures };
}

function rowCells(row: MachineCoverage, verdict?: string): string[] {
  const paths = row.paths.shortest + row.paths.simple + row.paths.edge;
  return [
    row.machine,
    `${row.statesReached}/${row.statesTotal} ${pct(row.statesReached, row.statesTotal)}%`,
    `${row.transitionsTaken}/${row.transitionsTotal} ${pct(row.transitionsTaken, row.transitionsTotal)}%`,
    String(paths),
    String(row.paths.shortest),
    String(row.paths.simple),
    String(row.paths.edge),
    verdict ?? (isComplete(row) ? 'ok' : 'FAIL below 100 %'),
  ];
}

function describeGap(row: MachineCoverage): string {
  const parts = [];
  if (row.missingStates.length) parts.push(`states never reached: ${row.missingStates.join(', ')}`);
  if (row.missingTransitions.length) parts.push(`transitions never taken: ${row.missingTransitions.join('; ')}`);
  return `${row.machine} (${row.files.join(', ')}): ${parts.join(' | ')}`;
}

export default class MachineCoverageReporter implements Reporter {
  private vitest!: Vitest;
  private fullRun = false;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>) {
    const running = new Set(specifications.map((s) => relative(REPO_ROOT, s.moduleId).split(sep).join('/')));
    this.fullRun = machineTestFiles().every((f) => running.has(f));
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const rows: Array<FileCoverageRow & { file: string }> = [];
    for (const module of testModules) {
      const file = relative(REPO_ROOT, module.moduleId).split(sep).join('/');
      // The mutation check replays deliberately broken machines: not part of the table.
      if (!file.startsWith('tests/machines/')) continue;
      for (const row of module.meta().machineCoverage ?? []) rows.push({ ...row, file: file.replace('tests/machines/', '') });
    }
    // A run of unrelated files (say, only the mutation check) has nothing to report.
    if (!rows.length && !this.fullRun) return;
    const { lines, failures } = coverageVerdict(mergeRows(rows), this.fullRun);
    for (const line of lines) this.vitest.logger.log(line);
    if (failures.length) process.exitCode = 1;
  }
}
