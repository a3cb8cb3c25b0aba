/**
 * CPU time of a process (user + system, seconds) from /proc/<pid>/stat, for the socket benches:
 * the clients share the machine's cores with the server under test, so each phase reports how
 * much CPU the server and the bench's own clients used. NaN where /proc is not there.
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export function processCpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** This process's CPU time (user + system, seconds). */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** CPU seconds of the server (`pid`) and of this process between now and `stop()`. */
export function cpuMeter(pid: number | undefined): () => { server: number; clients: number } {
  const s0 = processCpuSeconds(pid);
  const c0 = ownCpuSeconds();
  return () => ({ server: processCpuSeconds(pid) - s0, clients: ownCpuSeconds() - c0 });
}

export const cpuText = (c: { server: number; clients: number }, seconds: number) =>
  `server CPU ${c.server.toFixed(1)} s, clients CPU ${c.clients.toFixed(1)} s in ${seconds.toFixed(1)} s`;
