/**
 * The coverage of one machine as one test file measured it, and how several files' rows for
 * the same machine combine (a state or transition counts as covered when any file covered it).
 * Shared by the collector (in the test workers) and the reporter (in the main process).
 */
export interface FileCoverageRow {
  machine: string;
  statesReached: number;
  statesTotal: number;
  transitionsTaken: number;
  transitionsTotal: number;
  paths: { shortest: number; simple: number; edge: number };
  missingStates: string[];
  missingTransitions: string[];
}

export interface MachineCoverage extends FileCoverageRow {
  files: string[];
}

export function mergeRows(rows: Array<FileCoverageRow & { file: string }>): Map<string, MachineCoverage> {
  const merged = new Map<string, MachineCoverage>();
  for (const row of rows) {
    const seen = merged.get(row.machine);
    if (!seen) {
      merged.set(row.machine, { ...row, paths: { ...row.paths }, files: [row.file] });
      continue;
    }
    // Missing in every file = missing overall.
    seen.missingStates = seen.missingStates.filter((s) => row.missingStates.includes(s));
    seen.missingTransitions = seen.missingTransitions.filter((t) => row.missingTransitions.includes(t));
    seen.statesReached = seen.statesTotal - seen.missingStates.length;
    seen.transitionsTaken = seen.transitionsTotal - seen.missingTransitions.length;
    seen.paths.shortest += row.paths.shortest;
    seen.paths.simple += row.paths.simple;
    seen.paths.edge += row.paths.edge;
    if (!seen.files.includes(row.file)) seen.files.push(row.file);
  }
  return merged;
}

export const isComplete = (row: FileCoverageRow) => row.missingStates.length === 0 && row.missingTransitions.length === 0;
