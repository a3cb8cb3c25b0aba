/**
 * The mutation check's tools: broken copies of a machine and a run of the path harness
 * against them.
 *
 * A mutant is `createMachine` on a deep copy of `machine.config` (functions kept by reference)
 * with one edit, provided with the original's implementations, so it differs from the real
 * machine in exactly one transition. `checkMutant` then asks what the harness
 * (tests/machines/harness.ts) says about it:
 * 1. the paths generated from the real machine (the reviewed behaviour, what the path tests
 *    replay) replayed on the mutant: how many fail and where the first one fails;
 * 2. the paths generated from the mutant itself, replayed on it: the coverage the harness then
 *    reports (a transition whose removal makes a state unreachable shows as < 100 %);
 * 3. whether the mutant's diagram differs from the real one (what the docs staleness test
 *    compares with docs/machines/).
 */
import { createMachine, type AnyStateMachine } from 'xstate';
import { coverageTable, generatePaths, replayPath, type PathModel } from '../machines/harness';
import { renderMermaid } from '../../scripts/docs-machines';

type Config = Record<string, unknown>;

/** Deep copy of a machine config: plain objects and arrays copied, functions (guards, actions...) shared. */
export function cloneConfig<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneConfig) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneConfig(v)])) as T;
  }
  return value;
}

function stateConfig(config: Config, statePath: string[]): Config {
  let node = config;
  for (const key of statePath) {
    const states = node.states as Record<string, Config> | undefined;
    if (!states?.[key]) throw new Error(`mutation: no state ${statePath.join('.')}`);
    node = states[key];
  }
  return node;
}

/** The `on` transitions of a state for one event, always as an array (written back as one). */
function transitionsFor(node: Config, eventType: string): Config[] {
  const on = node.on as Record<string, unknown> | undefined;
  const value = on?.[eventType];
  if (value === undefined) throw new Error(`mutation: the state does not handle ${eventType}`);
  const list = (Array.isArray(value) ? value : [value]).map((t) => (typeof t === 'string' ? { target: t } : (t as Config)));
  on![eventType] = list;
  return list;
}

export function mutate(machine: AnyStateMachine, edit: (config: Config) => void): AnyStateMachine {
  const config = cloneConfig(machine.config) as Config;
  edit(config);
  return createMachine(config as never, machine.implementations as never) as unknown as AnyStateMachine;
}

/** Removes the `index`-th transition of `state` on `eventType` (the event is no longer handled if it was the only one). */
export function dropTransition(machine: AnyStateMachine, statePath: string[], eventType: string, index = 0): AnyStateMachine {
  return mutate(machine, (config) => {
    const node = stateConfig(config, statePath);
    const list = transitionsFor(node, eventType);
    if (!list[index]) throw new Error(`mutation: ${statePath.join('.')} has no transition #${index} on ${eventType}`);
    list.splice(index, 1);
    if (!list.length) delete (node.on as Record<string, unknown>)[eventType];
  });
}

/** Points the `index`-th transition of `state` on `eventType` at another target. */
export function retarget(machine: AnyStateMachine, statePath: string[], eventType: string, target: string, index = 0): AnyStateMachine {
  return mutate(machine, (config) => {
    const list = transitionsFor(stateConfig(config, statePath), eventType);
    if (!list[index]) throw new Error(`mutation: ${statePath.join('.')} has no transition #${index} on ${eventType}`);
    if (list[index].target === target) throw new Error(`mutation: the transition already targets ${target}`);
    list[index] = { ...list[index], target };
  });
}

export interface MutantReport {
  mutant: string;
  /** Paths of the real machine, replayed on the mutant. */
  expectedPaths: number;
  failedPaths: number;
  firstFailure: string | null;
  /** Paths generated from the mutant and replayed on it: what the coverage table would show. */
  regeneratedPaths: number;
  regeneratedStates: string;
  regeneratedTransitions: string;
  missingStates: string[];
  missingTransitions: string[];
  diagramChanged: boolean;
}

/**
 * `models`: the path models of the real machine (one per input when the machine starts
 * differently, all with the same machine), together reaching 100 % of it.
 */
export function checkMutant(models: PathModel[], mutantName: string, mutant: AnyStateMachine): MutantReport {
  let expectedPaths = 0;
  let failedPaths = 0;
  let firstFailure: string | null = null;
  for (const model of models) {
    const onMutant: PathModel = { ...model, name: `${mutantName} (reviewed paths)`, machine: mutant };
    for (const path of generatePaths({ ...model, name: `${model.name} (reviewed)` })) {
      expectedPaths += 1;
      try {
        replayPath(onMutant, path);
      } catch (error) {
        failedPaths += 1;
        firstFailure ??= String((error as Error).message).split('\n')[0];
      }
    }
  }

  const ownName = `${mutantName} (own paths)`;
  let regeneratedPaths = 0;
  for (const model of models) {
    const own: PathModel = { ...model, name: ownName, machine: mutant };
    for (const path of generatePaths(own)) {
      regeneratedPaths += 1;
      replayPath(own, path);
    }
  }
  const row = coverageTable().find((r) => r.machine === ownName)!;

  return {
    mutant: mutantName,
    expectedPaths,
    failedPaths,
    firstFailure,
    regeneratedPaths,
    regeneratedStates: row.states,
    regeneratedTransitions: row.transitions,
    missingStates: row.missingStates,
    missingTransitions: row.missingTransitions,
    diagramChanged: renderMermaid(mutant) !== renderMermaid(models[0].machine),
  };
}

export function formatReport(r: MutantReport): string {
  return [
    `${r.mutant}:`,
    `  reviewed paths replayed on the mutant: ${r.failedPaths}/${r.expectedPaths} fail${r.firstFailure ? `; first: ${r.firstFailure}` : ''}`,
    `  mutant's own paths: ${r.regeneratedPaths}, states ${r.regeneratedStates}, transitions ${r.regeneratedTransitions}` +
      (r.missingStates.length ? `; never reached: ${r.missingStates.join(', ')}` : '') +
      (r.missingTransitions.length ? `; never taken: ${r.missingTransitions.join(', ')}` : ''),
    `  diagram differs from docs/machines: ${r.diagramChanged ? 'yes' : 'no'}`,
  ].join('\n');
}
