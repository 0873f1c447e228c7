import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/**
 * A measured background load for a bench: N processes each spinning on one core, as a trader's
 * busy machine runs a browser, a charting tool and a call beside the desk. What each got of a
 * core is read from its own `/proc/<pid>/stat` (user + system ticks) over the run, so the
 * figures say how busy the machine really was, next to the load average.
 */
export interface BusyLoad {
  /** Stops the processes; what they used, per process as a share of one core, and the load averages. */
  stop(): BusyReport;
}

export interface BusyReport {
  readonly processes: number;
  /** Each process's CPU over the run, as a share of one core (0–1). */
  readonly coreShare: number[];
  readonly loadAverageStart: number;
  readonly loadAverageEnd: number;
}

const TICKS_PER_S = 100; // USER_HZ on Linux

function cpuTicks(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    // Fields after the command's closing parenthesis: utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  } catch {
    return 0;
  }
}

/** Starts `n` busy processes (none for 0). */
export function startBusyLoad(n: number): BusyLoad {
  const started = performance.now();
  const load0 = loadavg()[0] ?? 0;
  const children: ChildProcess[] = [];
  for (let i = 0; i < n; i += 1) children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return {
    stop(): BusyReport {
      const seconds = (performance.now() - started) / 1000;
      const coreShare = children.map((c) => Math.round((cpuTicks(c.pid) / TICKS_PER_S / seconds) * 100) / 100);
      for (const c of children) c.kill('SIGKILL');
      return { processes: n, coreShare, loadAverageStart: load0, loadAverageEnd: loadavg()[0] ?? 0 };
    },
  };
}

/** "2 busy processes (0.71, 0.69 of a core), load average 3.1 → 5.4" */
export function describeBusy(r: BusyReport): string {
  const la = `load average ${r.loadAverageStart.toFixed(1)} → ${r.loadAverageEnd.toFixed(1)}`;
  if (r.processes === 0) return `no background load, ${la}`;
  return `${r.processes} busy process${r.processes > 1 ? 'es' : ''} (${r.coreShare.map((s) => s.toFixed(2)).join(', ')} of a core), ${la}`;
}
