/**
 * The registry is complete and every machine in it is path-tested.
 *
 * - every machine exported by a machines/**\/*.machine.ts file is in scripts/machines-registry.ts
 *   (a new machine file without a registry entry fails here, so it cannot stay untested or
 *   undocumented), and every entry points at the file that exports it;
 * - every registered machine has a path test: a tests/machines file that asserts its full
 *   coverage under the registry name (the coverage table of `npm run test:paths` then shows it);
 * - every machine starts from its default input with inert actors;
 * - the verdict the coverage reporter prints (path-coverage/reporter.ts) fails what it must.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fromCallback, StateMachine, type AnyActorLogic, type AnyStateMachine } from 'xstate';
import { discoverMachineFiles, MACHINES, REPO_ROOT } from '../../scripts/machines-registry';
import { startUnderParent } from './harness';
import { coverageVerdict } from './path-coverage/reporter';
import { mergeRows, type FileCoverageRow } from './path-coverage/rows';

async function exportedMachines(file: string): Promise<Array<[string, AnyStateMachine]>> {
  const module: Record<string, unknown> = await import(join(REPO_ROOT, file));
  return Object.entries(module).filter((entry): entry is [string, AnyStateMachine] => entry[1] instanceof StateMachine);
}

describe('machine registry (scripts/machines-registry.ts)', () => {
  it('lists every machine exported by a *.machine.ts file, and nothing else', async () => {
    const unregistered: string[] = [];
    const registered = new Set(MACHINES.map((m) => m.machine));
    for (const file of discoverMachineFiles()) {
      const machines = await exportedMachines(file);
      expect(machines.length, `${file} exports no machine`).toBeGreaterThan(0);
      for (const [exportName, machine] of machines) {
        if (!registered.has(machine)) unregistered.push(`${exportName} (${file})`);
      }
    }
    expect(unregistered, 'machines missing from scripts/machines-registry.ts').toEqual([]);
  });

  it('points every entry at the file that exports its machine, under a unique name', async () => {
    const files = discoverMachineFiles();
    for (const entry of MACHINES) {
      expect(files, `${entry.name}: ${entry.file} is not a machine file`).toContain(entry.file);
      const machines = (await exportedMachines(entry.file)).map(([, m]) => m);
      expect(machines.includes(entry.machine), `${entry.name} is not exported by ${entry.file}`).toBe(true);
    }
    // One name everywhere: the coverage table, the docs and the inspector (which shows machine ids).
    for (const entry of MACHINES) expect(entry.machine.id, `${entry.file}: the registry name is the machine's id`).toBe(entry.name);
    const names = MACHINES.map((m) => m.name);
    expect(new Set(names).size, 'duplicate registry names').toBe(names.length);
    expect([...names].sort((a, b) => a.localeCompare(b)), 'keep the registry alphabetical').toEqual(names);
  });

  it('has a path test asserting full coverage for every registered machine', () => {
    const dir = join(REPO_ROOT, 'tests/machines');
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    const untested = MACHINES.filter(({ name }) => !sources.some((s) => new RegExp(`assertFullCoverage\\(\\s*['"\`]${name}['"\`]\\s*\\)`).test(s))).map(
      (m) => `${m.name} (${m.file})`,
    );
    expect(untested, "machines without a path test (tests/machines/<file>.test.ts calling assertFullCoverage('<name>'))").toEqual([]);
  });

  it.each(MACHINES.map((m) => [m.name, m] as const))('starts %s from its default input', (_, entry) => {
    const inert: Record<string, AnyActorLogic> = {};
    for (const name of Object.keys(entry.machine.implementations.actors)) inert[name] = fromCallback(() => {});
    // Fake timers: a machine's delays must not outlive the test (a child actor cannot be stopped).
    vi.useFakeTimers();
    try {
      const { actor } = startUnderParent(entry.machine.provide({ actors: inert }), entry.input as never);
      const snapshot = actor.getSnapshot();
      expect(snapshot.status, `${entry.name} failed to start: ${String(snapshot.error)}`).not.toBe('error');
      expect(snapshot.value).toBeTruthy();
    } finally {
      vi.clearAllTimers();
      vi.useRealTimers();
    }
  });
});

describe('coverage verdict of npm run test:paths', () => {
  const row = (machine: string, missingStates: string[] = [], missingTransitions: string[] = []): FileCoverageRow & { file: string } => ({
    machine,
    statesReached: 4 - missingStates.length,
    statesTotal: 4,
    transitionsTaken: 6 - missingTransitions.length,
    transitionsTotal: 6,
    paths: { shortest: 3, simple: 2, edge: 1 },
    missingStates,
    missingTransitions,
    file: `${machine}.test.ts`,
  });
  const complete = () => MACHINES.map((m) => row(m.name));

  it('passes when every registered machine is at 100 %', () => {
    const verdict = coverageVerdict(mergeRows(complete()), true);
    expect(verdict.failures).toEqual([]);
    expect(verdict.lines.join('\n')).toContain(`${MACHINES.length}/${MACHINES.length} machines at 100 %`);
  });

  it('fails a machine below 100 % and names what was missed', () => {
    const rows = complete().map((r) => (r.machine === 'registration' ? row('registration', ['submitting'], ['accountSettings on registration.backRequested #0']) : r));
    const verdict = coverageVerdict(mergeRows(rows), true);
    expect(verdict.failures).toHaveLength(1);
    expect(verdict.failures[0]).toContain('registration');
    expect(verdict.failures[0]).toContain('submitting');
    expect(verdict.failures[0]).toContain('accountSettings on registration.backRequested #0');
  });

  it('counts a state covered when any file covered it', () => {
    const rows = [...complete().filter((r) => r.machine !== 'locale'), row('locale', ['a'], []), { ...row('locale', ['b'], []), file: 'other.test.ts' }];
    expect(coverageVerdict(mergeRows(rows), true).failures).toEqual([]);
    const stillMissing = [...complete().filter((r) => r.machine !== 'locale'), row('locale', ['a']), { ...row('locale', ['a']), file: 'other.test.ts' }];
    expect(coverageVerdict(mergeRows(stillMissing), true).failures).toHaveLength(1);
  });

  it('fails a registered machine without a path test in a full run only', () => {
    const rows = complete().filter((r) => r.machine !== 'withdraw');
    expect(coverageVerdict(mergeRows(rows), true).failures).toEqual([expect.stringContaining("assertFullCoverage('withdraw')")]);
    expect(coverageVerdict(mergeRows(rows), false).failures).toEqual([]);
  });

  it('fails a path model whose name the registry does not know', () => {
    const verdict = coverageVerdict(mergeRows([...complete(), row('orderclose')]), true);
    expect(verdict.failures).toEqual([expect.stringContaining('orderclose')]);
  });
});
