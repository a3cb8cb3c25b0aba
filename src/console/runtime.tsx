/**
 * The console's React side of its actors: the runtime (console-actors.ts) in a context, the
 * operator's session and the hooks that create a screen's own list, record and action actors
 * (the one table, record and action machines, provided with the real effects).
 */
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import { roleAllows, type ConsolePermission } from '../../contract/console';
import type { ConsoleRecordInput } from '../../machines/console/console-record.machine';
import type { ConsoleTableInput } from '../../machines/console/console-table.machine';
import type { ConsoleOperator } from '../../machines/console/console.types';
import type { operatorSessionMachine } from '../../machines/console/operator-session.machine';
import type { ConsoleRuntime } from './services/console-actors';

export const RuntimeContext = createContext<ConsoleRuntime | null>(null);

export function useConsoleRuntime(): ConsoleRuntime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useConsoleRuntime() outside the console runtime');
  return runtime;
}

export type SessionActor = ActorRefFrom<typeof operatorSessionMachine>;

export function useSession(): SessionActor {
  const { root } = useConsoleRuntime();
  return useSelector(root, (s) => s.children.operatorSession) as SessionActor;
}

export function useOperator(): ConsoleOperator | null {
  return useSelector(useSession(), (s) => s.context.operator);
}

/** Whether the signed-in operator's role may do this (the server checks again). */
export function useCan(): (permission: ConsolePermission) => boolean {
  const operator = useOperator();
  return (permission) => operator !== null && roleAllows(operator.role, permission);
}

export function useTable(input: ConsoleTableInput) {
  return useActorRef(useConsoleRuntime().tableLogic, { input });
}

export function useRecord(input: ConsoleRecordInput) {
  return useActorRef(useConsoleRuntime().recordLogic, { input });
}

export function useAction() {
  return useActorRef(useConsoleRuntime().actionLogic);
}
