/**
 * Every `invoke` of every registered machine names its actor with an `id` (docs/architecture.md,
 * "The shape checks itself"): the Stately inspector, the generated docs and a test that sends
 * to or reads an invoked child find it by that id, and XState's generated ids change when a
 * state is moved.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { MACHINES } from '../../scripts/machines-registry';

interface StateConfig {
  invoke?: unknown;
  states?: Record<string, StateConfig>;
}

/** `path: src` of each invoke without an id, from the machine's own config (not the resolved nodes, whose ids are generated). */
function invokesWithoutId(config: StateConfig, path = '(root)'): string[] {
  const invokes = config.invoke === undefined ? [] : Array.isArray(config.invoke) ? config.invoke : [config.invoke];
  const missing = invokes
    .filter((inv) => typeof (inv as { id?: unknown }).id !== 'string' || !(inv as { id: string }).id)
    .map((inv) => `${path}: ${String((inv as { src?: unknown }).src)}`);
  for (const [key, child] of Object.entries(config.states ?? {})) missing.push(...invokesWithoutId(child, `${path}.${key}`));
  return missing;
}

describe('every invoke has an id', () => {
  it.each(MACHINES.map((m) => [m.name, m.machine] as const))('%s', (_name, machine: AnyStateMachine) => {
    expect(invokesWithoutId(machine.config as StateConfig)).toEqual([]);
  });

  it('finds an invoke without an id (the check can fail)', () => {
    expect(invokesWithoutId({ states: { a: { invoke: { src: 'x' } }, b: { invoke: [{ id: 'y', src: 'y' }] } } })).toEqual(['(root).a: x']);
  });
});
