/**
 * Setup file of `npm run test:paths` (tests/machines/path-coverage/paths.config.ts): after each test
 * file, hands the coverage the harness recorded in that file's process to the reporter
 * (reporter.ts) through the file's task meta, so one table can be printed for the whole run.
 * Each test file runs in its own worker, so the harness's registry only ever sees one file.
 */
import { afterAll } from 'vitest';
import { coverageTable } from '../harness';
import type { FileCoverageRow } from './rows';

declare module 'vitest' {
  interface TaskMeta {
    machineCoverage?: FileCoverageRow[];
  }
}

const fraction = (text: string): [number, number] => {
  const match = /^(\d+)\/(\d+)/.exec(text);
  if (!match) throw new Error(`unexpected coverage cell "${text}"`);
  return [Number(match[1]), Number(match[2])];
};

// eslint-disable-next-line no-empty-pattern -- Vitest parses the first parameter as a fixture list, so it must be a (here empty) destructuring.
afterAll(({}, file) => {
  const rows = coverageTable().map((row): FileCoverageRow => {
    const [statesReached, statesTotal] = fraction(row.states);
    const [transitionsTaken, transitionsTotal] = fraction(row.transitions);
    return {
      machine: row.machine,
      statesReached,
      statesTotal,
      transitionsTaken,
      transitionsTotal,
      paths: { shortest: row.shortest, simple: row.simple, edge: row.edge },
      missingStates: row.missingStates,
      missingTransitions: row.missingTransitions,
    };
  });
  if (rows.length) (file as { meta: { machineCoverage?: FileCoverageRow[] } }).meta.machineCoverage = rows;
});
