// CPU time from Linux /proc: a process's, PostgreSQL's, the whole machine's (NaN elsewhere).
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time every PostgreSQL process of this machine (server, backends, WAL writer) spent so far,
 * ms (Linux /proc); NaN where none is seen.
 */
export function databaseCpuMs(): number {
  let total = Number.NaN;
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return total;
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.includes("(postgres)")) total = (Number.isNaN(total) ? 0 : total) + statCpuMs(stat);
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** CPU time all the machine's cores spent on anything but idling so far, ms (Linux). */
export function machineCpuMs(): number {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/).slice(1);
    const ticks = (fields ?? []).map(Number);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return (ticks.reduce((a, b) => a + b, 0) - idle) * 10;
  } catch {
    return Number.NaN;
  }
}

/** The CPU time (user + system, ms) in a /proc/<pid>/stat line (10 ms ticks). */
export function statCpuMs(stat: string): number {
  const fields = stat.split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process's CPU time so far in ms (Linux /proc), or NaN. */
export function cpuMs(pid: number | undefined): number {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return Number.NaN;
  }
}
