// Purchases arriving: the open loop (a fixed schedule, whether or not earlier purchases were
// answered) and its figures beside the goals.
import { Agent, request } from "node:http";
import { endpoints } from "../../src/contract/endpoints.ts";
import { cpuMs } from "./cpu.ts";
import { type Figures, type LoadResult, percentile } from "./load.ts";

/** Purchases per second the open loop sends, from this many buyers (one account each). */
export const ARRIVALS_PER_SECOND = 100;
export const BUYERS = 100;
export const ARRIVAL_MS = 10_000;
export const ARRIVAL_WARM_UP_MS = 2_000;
/** A purchase not answered within this long counts as an error (bounds the run). */
export const ARRIVAL_TIMEOUT_MS = 30_000;

export type ArrivalRun = LoadResult & {
  /** Purchases answered 200 (each a new Idempotency-Key). */
  ok: number;
  /** CPU time the servers' processes spent per purchase answered, µs (NaN without pids). */
  serverCpuUs: number;
};

export let arrivalRuns = 0;

/**
 * Purchases (a single export, a new Idempotency-Key each) arriving on a fixed schedule,
 * `perSecond` a second for `ms`, whether or not earlier ones were answered (an open loop: buyers
 * do not wait for each other). Buyer `i % cookies.length` sends purchase `i`, to server
 * `i % urls.length`. Each latency runs from the purchase's scheduled time, so a stall of the
 * server (or of this process) counts for every purchase it delays.
 */
export async function arrivals(
  urls: string[],
  cookies: string[],
  options: { perSecond: number; ms: number; pids?: (number | undefined)[] },
): Promise<ArrivalRun> {
  const run = ++arrivalRuns;
  const total = Math.round((options.perSecond * options.ms) / 1000);
  const gapMs = 1000 / options.perSecond;
  // No cap on sockets: when answers are late, new buyers open connections of their own.
  const agents = urls.map(() => new Agent({ keepAlive: true }));
  const body = JSON.stringify({ product: { code: "single_export_hd" }, newCart: true });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  const send = (i: number, scheduled: number) =>
    new Promise<void>((done) => {
      const url = new URL(urls[i % urls.length] ?? "");
      const finish = (status: number) => {
        latencies.push(performance.now() - scheduled);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 0 || status >= 400) errors += 1;
        done();
      };
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: endpoints.upgrade.path,
          agent: agents[i % urls.length],
          timeout: ARRIVAL_TIMEOUT_MS,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            cookie: cookies[i % cookies.length] ?? "",
            "idempotency-key": `bench-arrival-${process.pid}-${run}-${i}`,
          },
        },
        (res) => {
          res.on("data", () => {});
          res.on("end", () => finish(res.statusCode ?? 0));
        },
      );
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", () => finish(0));
      req.end(body);
    });
  const serversBefore = (options.pids ?? []).map(cpuMs);
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  let next = 0;
  await new Promise<void>((allSent) => {
    const tick = () => {
      // Everything due by now goes out, each with its own scheduled time.
      while (next < total && t0 + next * gapMs <= performance.now()) {
        pending.push(send(next, t0 + next * gapMs));
        next += 1;
      }
      if (next >= total) allSent();
      else setTimeout(tick, Math.max(0, t0 + next * gapMs - performance.now()));
    };
    tick();
  });
  await Promise.all(pending);
  const seconds = (performance.now() - t0) / 1000;
  const serversMs = (options.pids ?? []).reduce<number>(
    (sum, pid, i) => sum + cpuMs(pid) - (serversBefore[i] ?? 0),
    0,
  );
  for (const agent of agents) agent.destroy();
  const ok = statuses.get(200) ?? 0;
  return {
    count: latencies.length,
    errors,
    seconds,
    latencies,
    statuses,
    ok,
    serverCpuUs: options.pids?.length ? (serversMs * 1000) / Math.max(1, ok) : Number.NaN,
  };
}

/** The open loop after a short warm-up of its own (the warm-up's figures are dropped). */
export async function arrivalLoad(
  urls: string[],
  cookies: string[],
  pids: (number | undefined)[],
): Promise<ArrivalRun> {
  await arrivals(urls, cookies, { perSecond: ARRIVALS_PER_SECOND, ms: ARRIVAL_WARM_UP_MS });
  return arrivals(urls, cookies, { perSecond: ARRIVALS_PER_SECOND, ms: ARRIVAL_MS, pids });
}

/** The open loop's figures under `prefix`, its p99 beside `goalMs`. */
export function arrivalFigures(prefix: string, run: ArrivalRun, goalMs?: number): Figures {
  const goal = goalMs === undefined ? "" : ` (goal ≤ ${goalMs})`;
  return {
    [`${prefix}purchases at ${ARRIVALS_PER_SECOND}/s, ${BUYERS} buyers: answered`]: run.count,
    [`${prefix}purchases: p50 latency, ms`]: Number(percentile(run.latencies, 50).toFixed(2)),
    [`${prefix}purchases: p99 latency, ms${goal}`]: Number(
      percentile(run.latencies, 99).toFixed(2),
    ),
    [`${prefix}purchases: errors`]: run.errors,
    [`${prefix}server CPU per purchase, µs`]: Math.round(run.serverCpuUs),
  };
}
