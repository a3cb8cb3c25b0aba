/**
 * The console's composition root: the root machine and the screens' machines provided with the
 * real effects (console-api.ts over console-http.ts). A 401 on any screen's call reaches the
 * root as `console.unauthorized`, which sends the operator back to the login.
 */
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { consoleMachine, type ConsoleLanguage } from '../../../machines/console/console.machine';
import { consoleActionMachine } from '../../../machines/console/console-action.machine';
import { consoleRecordMachine, type RecordQuery } from '../../../machines/console/console-record.machine';
import { consoleTableMachine } from '../../../machines/console/console-table.machine';
import type { ActionOutcome, ActionRequest, ConsoleOperator, LoginCredentials, TablePage, TableQuery } from '../../../machines/console/console.types';
import { operatorSessionMachine } from '../../../machines/console/operator-session.machine';
import { exportCsv, fetchPage, fetchRecord, loadOperator, logIn, logOut, performAction } from './console-api';
import { createConsoleHttp } from './console-http';

export type ConsoleActor = ActorRefFrom<typeof consoleMachine>;

export interface ConsoleRuntime {
  root: ConsoleActor;
  tableLogic: typeof consoleTableMachine;
  recordLogic: typeof consoleRecordMachine;
  actionLogic: typeof consoleActionMachine;
}

/** Hands a file to the browser as a download. */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function qrCode(text: string): Promise<string> {
  const QRCode = await import('qrcode');
  return QRCode.toDataURL(text, { margin: 1, width: 192 });
}

export function storedLanguage(): ConsoleLanguage {
  let stored: string | null = null;
  try {
    const raw = window.localStorage.getItem('language');
    stored = raw === null ? null : (JSON.parse(raw) as string);
  } catch {}
  const wanted = stored ?? navigator.language.slice(0, 2);
  return wanted === 'ru' || wanted === 'es' ? wanted : 'en';
}

export function createConsoleRuntime(): ConsoleRuntime {
  let root: ConsoleActor | null = null;
  const http = createConsoleHttp(() => root?.send({ type: 'console.unauthorized' }));

  const machine = consoleMachine.provide({
    actions: {
      persistLanguage: (_, params) => {
        try {
          window.localStorage.setItem('language', JSON.stringify(params.language));
        } catch {}
      },
    },
    actors: {
      operatorSession: operatorSessionMachine.provide({
        actors: {
          loadOperator: fromPromise<ConsoleOperator | null, void>(() => loadOperator(http)),
          logIn: fromPromise<ConsoleOperator, LoginCredentials>(({ input }) => logIn(http, input)),
          logOut: fromPromise<void, void>(() => logOut(http)),
        },
      }),
    },
  });
  root = createActor(machine, { input: { language: storedLanguage() } });
  root.start();

  return {
    root,
    tableLogic: consoleTableMachine.provide({
      actors: {
        fetchPage: fromPromise<TablePage, TableQuery>(({ input }) => fetchPage(http, input)),
        exportCsv: fromPromise<void, TableQuery>(({ input }) => exportCsv(http, input, saveFile)),
      },
    }),
    recordLogic: consoleRecordMachine.provide({
      actors: { fetchRecord: fromPromise<unknown, RecordQuery>(({ input }) => fetchRecord(http, input)) },
    }),
    actionLogic: consoleActionMachine.provide({
      actors: { performAction: fromPromise<ActionOutcome, ActionRequest>(({ input }) => performAction(http, input, qrCode)) },
    }),
  };
}
