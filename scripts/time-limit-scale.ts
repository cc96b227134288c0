// How much longer a test may take on this machine right now: the load average per core when the
// run starts, at least 1 (a quiet machine keeps the runner's defaults, so a hang fails as soon as
// before) and at most 6. Time limits are wall-clock time, but what a test needs is CPU time: on a
// shared 2-core machine at load 27 a screen took 10 times as long, and tests that waited on the
// right condition failed only by running out of time (decision 0030). The named environment
// variable sets the factor instead; a runner's workers inherit the run's factor through it.
import { availableParallelism, loadavg } from "node:os";

export function timeLimitScale(variable: string): number {
  const given = Number(process.env[variable]);
  if (given > 0) return given;
  const scale = Math.min(
    6,
    Math.max(1, Math.round((10 * loadavg()[0]) / availableParallelism()) / 10),
  );
  process.env[variable] = String(scale);
  return scale;
}
