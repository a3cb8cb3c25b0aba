/**
 * Replaying a machine's generated paths through its rendered view (jsdom).
 *
 * The paths come from the same generator as the machine path tests (tests/machines/harness.ts,
 * @xstate/graph shortest paths plus one-step edge extensions). Each path is replayed on a fresh
 * render of the real view with real actors: the flow's side effects are `ControlledActors`
 * (promise actors the test resolves or rejects), every other event is produced by a person's
 * action in the view (typing into labelled fields, leaving them, clicking buttons found by role
 * and name) or by the server (a socket push). After every step the flow actor must be in the
 * state the path predicts, with the predicted context, and the screen must show what a person
 * expects in that state (`UiDriver.expectScreen`).
 */
import type { ReactNode } from 'react';
import { act, render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import {
  createActor,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type AnyActorLogic,
  type AnyActorRef,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type StateValue,
} from 'xstate';
import { getStateNodes } from '@xstate/graph';
import { appMachine, type AppInput } from '../../machines/app/app.machine';
import { withFeatures } from '../support/app-features';
import { sessionMachine } from '../../machines/session/session.machine';
import { socketMachine } from '../../machines/socket/socket.machine';
import type { User } from '../../contract/user';
import { RuntimeProvider } from '../../src/shared/runtime';
import type { AppRuntime } from '../../src/app/create-app-actor';
import { ModalHost } from '../../src/app/modal-host';
import { I18nProvider } from '../../src/i18n';
import type { MachinePath, PathStep } from '../machines/harness';

interface Pending {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Promise actors whose outcome the test decides: one queue of pending calls per actor source. */
export class ControlledActors {
  private pending = new Map<string, Pending[]>();
  readonly calls: Array<{ src: string; input: unknown }> = [];

  logic<TOutput = unknown, TInput = unknown>(src: string) {
    return fromPromise<TOutput, TInput>(
      ({ input }) =>
        new Promise<TOutput>((resolve, reject) => {
          this.calls.push({ src, input });
          const list = this.pending.get(src) ?? [];
          list.push({ input, resolve: resolve as (value: unknown) => void, reject });
          this.pending.set(src, list);
        }),
    );
  }

  /** Finishes the latest call of `src` (an earlier one belongs to a state the flow has left). */
  settle(src: string, outcome: 'done' | 'error', value: unknown): void {
    const call = this.pending.get(src)?.pop();
    if (!call) throw new Error(`no call of ${src} is waiting (the view did not start it)`);
    if (outcome === 'done') call.resolve(value);
    else call.reject(value);
  }

  waiting(src: string): number {
    return this.pending.get(src)?.length ?? 0;
  }
}

/** Invoke id -> actor source name, for every invocation in the machine. */
export function invokeSources(machine: AnyStateMachine): Map<string, string> {
  const map = new Map<string, string>();
  for (const node of [machine.root, ...getStateNodes(machine.root)] as AnyStateNode[]) {
    for (const def of node.invoke as Array<{ id: string; src: unknown }>) map.set(def.id, typeof def.src === 'string' ? def.src : def.id);
  }
  return map;
}

/** Every state node key (`a.b`) active in a state value. */
export function activeStates(value: StateValue, prefix: string[] = []): string[] {
  if (typeof value === 'string') return [[...prefix, value].join('.')];
  return Object.entries(value).flatMap(([key, sub]) => [[...prefix, key].join('.'), ...activeStates(sub as StateValue, [...prefix, key])]);
}

/**
 * The states a view can show: every state node except transient ones (an `always` transition
 * without a guard leaves them in the same step, so no snapshot ever rests in them).
 */
export function allStateKeys(machine: AnyStateMachine): string[] {
  const transient = (n: AnyStateNode) => (n.always ?? []).some((t) => !t.guard);
  return getStateNodes(machine.root)
    .filter((n) => !transient(n))
    .map((n) => n.path.join('.'));
}

export interface UiDriver {
  /** The flow actor the path is about (spawned by the view, so looked up each time). */
  flow(): AnyActorRef | undefined;
  /** Performs what a person (or the server) does to send `event`; `before` is the state it is sent in. */
  perform(event: EventObject, before: PathStep): Promise<void>;
  /** Asserts what a person sees in the state `step` predicts. */
  expectScreen(step: PathStep): void;
  /** Context fields that cannot be predicted (a random key made by the view), removed before comparing. */
  normalize?(context: unknown): unknown;
}

const describeEvent = (event: EventObject) => event.type;

/**
 * The paths a view replays: every generated path except those whose events are a strict prefix
 * of another path's (a shortest path that an edge path extends by one step). Replaying the longer
 * path goes through the very same steps and checks (state, context and screen after each), so
 * nothing is checked less; each render costs a few hundred milliseconds in jsdom, so the
 * duplicates are not replayed twice. Returns `[name, path]` cases and how many were absorbed.
 */
export function uiPathCases(paths: MachinePath[]): { cases: Array<readonly [string, MachinePath]>; absorbed: number } {
  const keys = paths.map((p) => p.steps.slice(1).map((s) => JSON.stringify(s.event)));
  const isPrefix = (a: string[], b: string[]) => a.length < b.length && a.every((e, i) => e === b[i]);
  const kept = paths.filter((_, i) => !keys.some((other, j) => j !== i && isPrefix(keys[i], other)));
  return {
    cases: kept.map((p) => [`${p.kind} #${paths.indexOf(p) + 1}: ${p.description}`, p] as const),
    absorbed: paths.length - kept.length,
  };
}

export interface UiReplay {
  /** The machine the paths were generated from (its invocations and delays). */
  machine: AnyStateMachine;
  controlled: ControlledActors;
  /** The clock the app actor was created with, when the machine has delays: time passes only when a path says so. */
  clock?: SimulatedClock;
}

/** How long an `xstate.after.<delay>.<state id>` event waits, from the machine's own delays. */
function delayOf(machine: AnyStateMachine, eventType: string, context: unknown): number {
  const name = eventType.slice('xstate.after.'.length).split('.')[0];
  if (/^\d+$/.test(name)) return Number(name);
  const delay = (machine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  if (typeof delay === 'function') return (delay as (args: { context: unknown }) => number)({ context });
  throw new Error(`unknown delay ${name}`);
}

/**
 * Replays one path: checks the initial screen, then for each step performs the event (an
 * invoked actor's done/error event settles the controlled actor instead, a timer event moves
 * the simulated clock by the delay) and checks state, context and screen. Returns the state
 * keys the flow actually went through.
 */
export async function replayUiPath(path: MachinePath, driver: UiDriver, replay: UiReplay): Promise<Set<string>> {
  const { controlled, clock } = replay;
  const sources = invokeSources(replay.machine);
  const visited = new Set<string>();
  const normalize = driver.normalize ?? ((c: unknown) => c);
  const check = async (step: PathStep, index: number) => {
    const where = `step ${index} (${index ? describeEvent(step.event) : 'start'}) of: ${path.description}`;
    await waitFor(() => {
      const flow = driver.flow();
      expect(flow, `${where}: the flow actor is not running`).toBeDefined();
      expect(flow!.getSnapshot().value, where).toEqual(step.value);
    });
    const snapshot = driver.flow()!.getSnapshot();
    expect(normalize(snapshot.context), `${where}: context`).toEqual(normalize(step.context));
    for (const key of activeStates(snapshot.value)) visited.add(key);
    await waitFor(() => driver.expectScreen(step));
  };

  await check(path.steps[0], 0);
  for (let i = 1; i < path.steps.length; i++) {
    const step = path.steps[i];
    const before = path.steps[i - 1];
    const finished = /^xstate\.(done|error)\.actor\.(.+)$/.exec(step.event.type);
    if (finished) {
      const src = sources.get(finished[2]) ?? finished[2];
      const payload = finished[1] === 'done' ? (step.event as { output?: unknown }).output : (step.event as { error?: unknown }).error;
      await act(async () => controlled.settle(src, finished[1] as 'done' | 'error', payload));
    } else if (step.event.type.startsWith('xstate.after.')) {
      if (!clock) throw new Error('a timer event needs the simulated clock');
      const ms = delayOf(replay.machine, step.event.type, driver.flow()!.getSnapshot().context);
      await act(async () => clock.increment(ms));
    } else {
      await driver.perform(step.event, before);
    }
    await check(step, i);
  }
  return visited;
}

/** A field's label as a person reads it: the text, with the kit's " *" of a required field. */
export function labelText(label: string): RegExp {
  return new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
}

/**
 * The real app machine for a view under test: every child is the real machine, the socket's
 * connection is inert, the session's settings save never answers, and `actors` replaces the
 * flow machines whose side effects the test controls. Time is a SimulatedClock: nothing in the
 * actor system times out unless a path says so. `signIn` logs a user in the way registration
 * does (session.registered), so the balance, money and trading children are set up.
 */
export function startApp(actors: Record<string, AnyActorLogic>, signIn?: User) {
  const clock = new SimulatedClock();
  const logic = appMachine.provide({
    actors: {
      ...withFeatures,
      session: sessionMachine.provide({ actors: { saveFrontSettings: fromPromise(() => new Promise(() => {})) } }),
      socket: socketMachine.provide({ actors: { socketConnection: fromCallback(() => {}) } }),
      ...actors,
    },
  });
  const input: AppInput = { persistedSession: null, adminToken: null, storedLanguage: null, storedTheme: null, systemPrefersDark: true };
  const app = createActor(logic, { input, clock }).start();
  if (signIn) app.system.get('session').send({ type: 'session.registered', token: 'tok', refreshToken: null, user: signIn });
  const runtime = { actor: app, services: {} } as unknown as AppRuntime;
  const user = userEvent.setup();
  let view: ReturnType<typeof render> | null = null;
  return {
    app,
    clock,
    user,
    /** A socket message from the server, routed by the app like a real one. */
    push: (event: string, payload: unknown) => act(() => app.send({ type: 'socket.messageReceived', event, payload })),
    render(ui: ReactNode) {
      view = render(
        <RuntimeProvider runtime={runtime}>
          <I18nProvider language="en">
            {ui}
            <ModalHost />
          </I18nProvider>
        </RuntimeProvider>,
      );
      return view;
    },
    /** Unmount first (a view ends its flow when it goes), then stop the app. */
    stop() {
      view?.unmount();
      app.stop();
    },
  };
}
