/**
 * Path testing for the XState machines.
 *
 * 1. Generate paths from the machine's own graph with @xstate/graph: getShortestPaths (one
 *    shortest path to every distinct state = value + context) and getSimplePaths (every
 *    loop-free route to every state), plus one-step extensions of the shortest paths by every
 *    event the graph knows in that state, so transitions that come back to the same state
 *    (forwarding, ignored-by-guard, queued) are taken too. Invoked actors finishing are modelled
 *    as `xstate.done.actor.<id>` {output} / `xstate.error.actor.<id>` {error} events and timers
 *    as `xstate.after.<delay>.<state>` events, all listed with payloads by the test.
 * 2. Replay each path on a real actor, `createActor(machine.provide({ actors: stubs }))`, with
 *    a recording parent and fake timers, and assert after every step that the actor's value and
 *    context equal the ones the graph predicted.
 * 3. Record which state nodes were active and which transition definitions were taken (from
 *    the actor system's `@xstate.microstep` inspection events) and compare them with every
 *    state node and transition found by walking `machine.root`: coverageTable() /
 *    printCoverage() report it and assertFullCoverage() fails below 100 %.
 *
 * The library's traversal runs every transition in one shared mock actor scope, in which a
 * child spawned with a systemId stays registered forever; a machine that spawns a systemId'd
 * flow twice could not be traversed. `traversalLogic` therefore gives every transition a fresh,
 * effect-free scope (with a parent, so sendParent resolves).
 */
import { expect, vi } from 'vitest';
import {
  __unsafe_getAllOwnEventDescriptors,
  createActor,
  createEmptyActor,
  fromCallback,
  type Actor,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type InputFrom,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, getSimplePaths, getStateNodes, serializeSnapshot, type StatePath } from '@xstate/graph';

export interface PathModel<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** Name in the coverage table. */
  name: string;
  machine: TMachine;
  input?: InputFrom<TMachine>;
  /**
   * The events to try, with payloads: every event type the machine handles must be listed at
   * least once (timer events `xstate.after.*` are added automatically). A function can offer
   * different events in different states (e.g. to bound a counter).
   */
  events: AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => AnyEventObject[]);
  /** Replacements for named actors during replay; by default every actor is an inert callback. */
  actors?: Record<string, AnyActorLogic>;
  /** Generate simple paths too (default true). A number caps how many are kept. */
  simplePaths?: boolean | number;
  /**
   * A smaller event set for the simple paths, whose number grows combinatorially with the
   * graph (default: `events`). Shortest paths and edges always use `events`.
   */
  simplePathEvents?: PathModel<TMachine>['events'];
  /** Most states the traversal may visit (default 20,000). */
  limit?: number;
}

export interface PathStep {
  event: EventObject;
  value: StateValue;
  context: unknown;
}

export interface MachinePath {
  kind: 'shortest' | 'simple' | 'edge';
  description: string;
  steps: PathStep[];
}

export interface ReplayResult {
  parentEvents: EventObject[];
  transitions: Set<string>;
  states: Set<string>;
}

interface CoverageRecord {
  machine: string;
  allStates: string[];
  allTransitions: string[];
  states: Set<string>;
  transitions: Set<string>;
  paths: Record<MachinePath['kind'], number>;
}

export interface CoverageRow {
  machine: string;
  paths: number;
  shortest: number;
  simple: number;
  edge: number;
  states: string;
  transitions: string;
  missingStates: string[];
  missingTransitions: string[];
}

const registry = new Map<string, CoverageRecord>();

/** Largest graph (distinct states) getSimplePaths is run on. */
const MAX_SIMPLE_PATH_STATES = 40;

// ---- machine structure ----------------------------------------------------------------------

const nodeKey = (node: AnyStateNode) => (node.path.length ? node.path.join('.') : '(root)');

/** Events the transition was taken on, ordered like the machine's own lists. */
function transitionKey(transition: { source: AnyStateNode; eventType: string }): string | null {
  const { source, eventType } = transition;
  if (eventType === null || eventType === undefined) return null; // the initial transition
  const list = eventType === '' ? (source.always ?? []) : (source.transitions.get(eventType) ?? []);
  const index = list.indexOf(transition as (typeof list)[number]);
  return `${nodeKey(source)} on ${eventType === '' ? '(always)' : eventType} #${index}`;
}

function allStateKeys(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map(nodeKey);
}

function allTransitionKeys(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const [eventType, list] of node.transitions) list.forEach((_, i) => keys.push(`${nodeKey(node)} on ${eventType} #${i}`));
    (node.always ?? []).forEach((_, i) => keys.push(`${nodeKey(node)} on (always) #${i}`));
  }
  return keys;
}

function activeStateKeys(value: StateValue, prefix: string[] = []): string[] {
  if (typeof value === 'string') return [[...prefix, value].join('.')];
  return Object.entries(value).flatMap(([key, sub]) => [[...prefix, key].join('.'), ...activeStateKeys(sub as StateValue, [...prefix, key])]);
}

// ---- traversal ------------------------------------------------------------------------------

function freshScope(): AnyActorScope {
  const parent = createEmptyActor();
  const self = createActor(fromCallback(() => {}), { parent });
  return {
    self,
    id: '',
    sessionId: Math.random().toString(36).slice(2),
    logger: () => {},
    defer: () => {},
    emit: () => {},
    system: self.system,
    stopChild: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
}

/** The machine as the graph sees it: the same logic, each transition in a fresh mock scope. */
export function traversalLogic<TMachine extends AnyStateMachine>(machine: TMachine): TMachine {
  return Object.create(machine, {
    transition: { value: (snapshot: unknown, event: EventObject) => machine.transition(snapshot as never, event as never, freshScope()) },
  }) as TMachine;
}

function eventsFor(model: PathModel) {
  return (snapshot: AnyMachineSnapshot): EventObject[] => {
    const offered = typeof model.events === 'function' ? model.events(snapshot) : model.events;
    const handled = __unsafe_getAllOwnEventDescriptors(snapshot);
    // Only what this state handles (the rest would be self-loops that take no transition);
    // timers fire as their xstate.after.* events.
    const events = offered.filter((e) => handled.includes(e.type));
    for (const type of handled) if (type.startsWith('xstate.after.')) events.push({ type });
    return events;
  };
}

function describeEvent(event: EventObject): string {
  const { type, ...rest } = event;
  const keys = Object.keys(rest);
  if (!keys.length) return type;
  const text = JSON.stringify(rest);
  return `${type} ${text.length > 60 ? text.slice(0, 57) + '...' : text}`;
}

function toMachinePath(kind: MachinePath['kind'], path: StatePath<AnyMachineSnapshot, EventObject>): MachinePath {
  const steps = path.steps.map((step) => ({ event: step.event, value: step.state.value, context: step.state.context }));
  const description = steps.length <= 1 ? '(initial state)' : steps.slice(1).map((s) => describeEvent(s.event)).join(' -> ');
  return { kind, description, steps };
}

/** All paths for a model: shortest, simple and one-step edge extensions, without duplicates. */
export function generatePaths(model: PathModel): MachinePath[] {
  const logic = traversalLogic(model.machine);
  // A runaway state space (an unbounded counter in context) fails fast instead of hanging.
  const options = { input: model.input, events: eventsFor(model), limit: model.limit ?? 20_000 };
  const shortest = getShortestPaths(logic, options as never) as StatePath<AnyMachineSnapshot, EventObject>[];
  let simple: StatePath<AnyMachineSnapshot, EventObject>[] = [];
  if (model.simplePaths !== false) {
    const simpleOptions = { ...options, events: eventsFor({ ...model, events: model.simplePathEvents ?? model.events }) };
    // Simple paths grow exponentially with the graph: refuse a graph that would take minutes.
    const size = Object.keys(getAdjacencyMap(logic, simpleOptions as never)).length;
    if (size > MAX_SIMPLE_PATH_STATES) {
      throw new Error(`${model.name}: the simple-path graph has ${size} states (max ${MAX_SIMPLE_PATH_STATES}); give a smaller simplePathEvents`);
    }
    simple = getSimplePaths(logic, simpleOptions as never) as StatePath<AnyMachineSnapshot, EventObject>[];
    if (typeof model.simplePaths === 'number') simple = simple.slice(0, model.simplePaths);
  }

  const paths: MachinePath[] = [];
  const seen = new Set<string>();
  const add = (path: MachinePath) => {
    const key = JSON.stringify(path.steps.map((s) => s.event));
    if (seen.has(key)) return;
    seen.add(key);
    paths.push(path);
  };
  for (const p of shortest) add(toMachinePath('shortest', p));
  for (const p of simple) add(toMachinePath('simple', p));

  // One step further from every state along every event the graph tried there.
  const adjacency = getAdjacencyMap(logic, options as never);
  const shortestByState = new Map<string, StatePath<AnyMachineSnapshot, EventObject>>(shortest.map((p) => [serializeSnapshot(p.state), p]));
  for (const [serialized, entry] of Object.entries(adjacency) as Array<[string, (typeof adjacency)[keyof typeof adjacency]]>) {
    const head = shortestByState.get(serialized);
    if (!head) continue;
    for (const { event, state } of Object.values(entry.transitions) as Array<{ event: EventObject; state: unknown }>) {
      const base = toMachinePath('edge', head);
      base.steps.push({ event, value: (state as AnyMachineSnapshot).value, context: (state as AnyMachineSnapshot).context });
      base.description = base.steps.slice(1).map((s) => describeEvent(s.event)).join(' -> ');
      add(base);
    }
  }

  const record = recordFor(model);
  for (const p of paths) record.paths[p.kind] += 1;
  return paths;
}

// ---- replay ---------------------------------------------------------------------------------

function inertActors(machine: AnyStateMachine): Record<string, AnyActorLogic> {
  const stubs: Record<string, AnyActorLogic> = {};
  for (const name of Object.keys(machine.implementations.actors)) stubs[name] = fromCallback(() => {});
  return stubs;
}

function recordFor(model: PathModel): CoverageRecord {
  let record = registry.get(model.name);
  if (!record) {
    record = {
      machine: model.name,
      allStates: allStateKeys(model.machine),
      allTransitions: allTransitionKeys(model.machine),
      states: new Set(),
      transitions: new Set(),
      paths: { shortest: 0, simple: 0, edge: 0 },
    };
    registry.set(model.name, record);
  }
  return record;
}

/**
 * Starts the machine (provided with stub actors) under a recording parent and sends the path's
 * events, checking value and context after every step. Returns what the parent heard and what
 * was covered.
 */
export function replayPath(model: PathModel, path: MachinePath): ReplayResult {
  vi.useFakeTimers();
  const parentEvents: EventObject[] = [];
  const transitions = new Set<string>();
  const states = new Set<string>();
  const parent = createActor(
    fromCallback<EventObject>(({ receive }) => {
      receive((event) => parentEvents.push(event));
    }),
  ).start();
  const machine = model.machine.provide({ actors: { ...inertActors(model.machine), ...model.actors } });
  // Buffered and matched afterwards: the first microsteps (eventless transitions out of the
  // initial state) happen inside createActor, before the actor can be compared with.
  const microsteps: Array<{ actorRef: unknown; transitions: unknown[]; value: StateValue }> = [];
  let actor: ReturnType<typeof createActor> | undefined;
  const subscription = parent.system.inspect((event) => {
    if (event.type !== '@xstate.microstep') return;
    microsteps.push({ actorRef: event.actorRef, transitions: event._transitions, value: (event.snapshot as AnyMachineSnapshot).value });
  });
  try {
    actor = createActor(machine, { input: model.input, parent } as never);
    actor.start();
    const check = (step: PathStep, index: number) => {
      const snapshot = actor!.getSnapshot() as AnyMachineSnapshot;
      for (const key of activeStateKeys(snapshot.value)) states.add(key);
      const where = `${model.name} [${path.kind}] step ${index} (${describeEvent(step.event)}) of: ${path.description}`;
      expect(snapshot.value, where).toEqual(step.value);
      expect(snapshot.context, where).toEqual(step.context);
    };
    path.steps.forEach((step, index) => {
      if (index > 0) actor!.send(step.event);
      check(step, index);
    });
  } finally {
    // A child of another actor cannot be stopped directly: its timers are dropped with the
    // fake clock and its (inert) children hold nothing.
    subscription.unsubscribe();
    parent.stop();
    vi.clearAllTimers();
    vi.useRealTimers();
  }
  for (const step of microsteps) {
    if (step.actorRef !== actor) continue;
    for (const t of step.transitions as Array<{ source: AnyStateNode; eventType: string }>) {
      const key = transitionKey(t);
      if (key) {
        transitions.add(key);
        states.add(nodeKey(t.source));
      }
    }
    for (const key of activeStateKeys(step.value)) states.add(key);
  }
  const record = recordFor(model);
  for (const key of states) record.states.add(key);
  for (const key of transitions) record.transitions.add(key);
  return { parentEvents, transitions, states };
}

// ---- coverage -------------------------------------------------------------------------------

function percent(part: number, whole: number): string {
  return whole === 0 ? '100.0' : ((100 * part) / whole).toFixed(1);
}

/** One row per machine replayed in this process. */
export function coverageTable(): CoverageRow[] {
  return [...registry.values()].map((r) => {
    const reachedStates = r.allStates.filter((s) => r.states.has(s));
    const takenTransitions = r.allTransitions.filter((t) => r.transitions.has(t));
    return {
      machine: r.machine,
      paths: r.paths.shortest + r.paths.simple + r.paths.edge,
      shortest: r.paths.shortest,
      simple: r.paths.simple,
      edge: r.paths.edge,
      states: `${reachedStates.length}/${r.allStates.length} (${percent(reachedStates.length, r.allStates.length)} %)`,
      transitions: `${takenTransitions.length}/${r.allTransitions.length} (${percent(takenTransitions.length, r.allTransitions.length)} %)`,
      missingStates: r.allStates.filter((s) => !r.states.has(s)),
      missingTransitions: r.allTransitions.filter((t) => !r.transitions.has(t)),
    };
  });
}

export function printCoverage(): void {
  const rows = coverageTable();
  if (!rows.length) return;
  const lines = rows.map(
    (r) =>
      `  ${r.machine.padEnd(16)} paths ${String(r.paths).padStart(4)} (shortest ${r.shortest}, simple ${r.simple}, edge ${r.edge})  states ${r.states}  transitions ${r.transitions}` +
      (r.missingStates.length ? `\n    missing states: ${r.missingStates.join(', ')}` : '') +
      (r.missingTransitions.length ? `\n    missing transitions: ${r.missingTransitions.join(', ')}` : ''),
  );
  console.log(['Machine path coverage:', ...lines].join('\n'));
}

export function assertFullCoverage(name: string): void {
  const row = coverageTable().find((r) => r.machine === name);
  expect(row, `no paths were replayed for ${name}`).toBeDefined();
  expect(row!.missingStates, `${name}: states never reached`).toEqual([]);
  expect(row!.missingTransitions, `${name}: transitions never taken`).toEqual([]);
}

/** Every path of a model: generate, replay, and leave the coverage in the registry. */
export function pathCases(model: PathModel): Array<[string, MachinePath]> {
  return generatePaths(model).map((p, i) => [`${p.kind} #${i + 1}: ${p.description}`, p]);
}

/**
 * For focused tests: starts `logic` as the child of a recording parent, so sendParent works and
 * what the machine tells its parent can be asserted.
 */
export function startUnderParent<TLogic extends AnyStateMachine>(
  logic: TLogic,
  input?: InputFrom<TLogic>,
): { actor: Actor<TLogic>; parentEvents: EventObject[] } {
  const parentEvents: EventObject[] = [];
  const parent = createActor(
    fromCallback<EventObject>(({ receive }) => {
      receive((event) => parentEvents.push(event));
    }),
  ).start();
  const actor = createActor(logic, { input, parent } as never) as Actor<TLogic>;
  actor.start();
  return { actor, parentEvents };
}
