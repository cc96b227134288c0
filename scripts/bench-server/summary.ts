// The order summary against the bare node:http JSON handler (goal: a ratio of their rates), and
// the `summary` mode: that alone, with each server's CPU per answer, on SQLite then PostgreSQL.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoints } from "../../src/contract/endpoints.ts";
import { post, signIn } from "./accounts.ts";
import { startChild, stopChild } from "./children.ts";
import { cpuMs, databaseCpuMs } from "./cpu.ts";
import { benchSchema, findPostgres, postgresEnv } from "./database.ts";
import {
  add,
  CONNECTIONS,
  combine,
  type Figures,
  type LoadResult,
  load,
  percentile,
  type Target,
} from "./load.ts";

/** Rounds of summaries and bare answers, interleaved. */
export const ROUNDS = 6;

export type SummaryRun = {
  summaryRate: number;
  bareRate: number;
  summaryRun: LoadResult;
  /** CPU time (user + system) each server process spent per answer, µs; NaN where unknown. */
  summaryCpuUs: number;
  bareCpuUs: number;
  /** CPU time PostgreSQL's processes on this machine spent per order summary, µs (NaN: none). */
  databaseCpuUs: number;
};

/** `load`, and the CPU time the server process `pid` spent meanwhile, added to `cpu.ms`. */
export async function loadCounted(
  target: Target,
  limits: { connections: number; maxRequests: number; maxMs: number },
  pid: number | undefined,
  cpu: { ms: number },
): Promise<LoadResult> {
  const before = cpuMs(pid);
  const result = await load(target, limits);
  cpu.ms += cpuMs(pid) - before;
  return result;
}

/**
 * Order summaries of a signed-in account beside the bare handler, interleaved in rounds. With
 * the servers' process ids, also the CPU time each spent per answer: what a change to the
 * request's work saves, apart from the load generator's ceiling on the bare handler's rate. It
 * rises too on a machine busy with other work (compare within one run), and on PostgreSQL it
 * leaves out the database's own CPU.
 */
export async function measureSummary(
  apiUrl: string,
  bareUrl: string,
  cookie: string,
  pids: { api?: number; bare?: number } = {},
): Promise<SummaryRun> {
  const summaryBody = JSON.stringify({ targetProduct: "wv_bizoct17_12m", seats: 5 });
  const summary: Target = {
    url: apiUrl,
    method: "POST",
    path: endpoints.orderSummary.path,
    headers: { "content-type": "application/json", cookie },
    body: () => ({ body: summaryBody }),
  };
  const check = await post(apiUrl, summary.path, JSON.parse(summaryBody), { cookie });
  if (!check.response.ok) throw new Error(`bench: order summary answered ${check.response.status}`);
  const bareTarget: Target = {
    ...summary,
    url: bareUrl,
    headers: { "content-type": "application/json" },
  };

  const limits = { connections: CONNECTIONS, maxRequests: 100_000, maxMs: 700 };
  await load(summary, limits); // warm-up
  await load(bareTarget, limits);
  // Interleaved rounds, so that both see the same background load of a shared machine.
  const summaryRun = combine([]);
  const bareRun = combine([]);
  const summaryCpu = { ms: 0 };
  const bareCpu = { ms: 0 };
  let databaseMs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const databaseBefore = databaseCpuMs();
    add(summaryRun, await loadCounted(summary, limits, pids.api, summaryCpu));
    databaseMs += databaseCpuMs() - databaseBefore;
    add(bareRun, await loadCounted(bareTarget, limits, pids.bare, bareCpu));
  }
  return {
    summaryRate: summaryRun.count / summaryRun.seconds,
    bareRate: bareRun.count / bareRun.seconds,
    summaryRun,
    summaryCpuUs: (summaryCpu.ms * 1000) / summaryRun.count,
    bareCpuUs: (bareCpu.ms * 1000) / bareRun.count,
    databaseCpuUs: (databaseMs * 1000) / summaryRun.count,
  };
}

export function summaryFigures(prefix: string, run: SummaryRun, goal: number): Figures {
  return {
    [`${prefix}order summary, requests/s (50 connections)`]: Math.round(run.summaryRate),
    [`${prefix}bare node:http JSON handler, requests/s`]: Math.round(run.bareRate),
    [`${prefix}order summary / bare handler (goal ≥ ${goal})`]: Number(
      (run.summaryRate / run.bareRate).toFixed(2),
    ),
    [`${prefix}order summary p99 latency, ms (50 connections)`]: Number(
      percentile(run.summaryRun.latencies, 99).toFixed(2),
    ),
    [`${prefix}order summary errors`]: run.summaryRun.errors,
  };
}

/** The order summary only (the `summary` mode): SQLite, then PostgreSQL when one answers. */
export async function benchSummaryOnly(): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), "bench-server-"));
  const bare = await startChild("child-bare");
  const figures: Figures = {};
  const one = async (name: string, env: Record<string, string>) => {
    const api = await startChild("child-api", env);
    try {
      const cookie = await signIn(api.url, "monthly@demo.test");
      const run = await measureSummary(api.url, bare.url, cookie, {
        api: api.child.pid,
        bare: bare.child.pid,
      });
      figures[`${name}: order summary, requests/s`] = Math.round(run.summaryRate);
      figures[`${name}: bare handler, requests/s`] = Math.round(run.bareRate);
      figures[`${name}: order summary / bare handler`] = Number(
        (run.summaryRate / run.bareRate).toFixed(2),
      );
      figures[`${name}: order summary p99 latency, ms`] = Number(
        percentile(run.summaryRun.latencies, 99).toFixed(2),
      );
      figures[`${name}: order summary errors`] = run.summaryRun.errors;
      figures[`${name}: server CPU per order summary, µs`] = Math.round(run.summaryCpuUs);
      figures[`${name}: bare handler's CPU per answer, µs`] = Math.round(run.bareCpuUs);
      if (name === "PostgreSQL")
        figures[`${name}: database CPU per order summary, µs (all PostgreSQL processes)`] =
          Math.round(run.databaseCpuUs);
      figures[`${name}: bare CPU / order summary CPU`] = Number(
        (run.bareCpuUs / run.summaryCpuUs).toFixed(2),
      );
    } finally {
      await stopChild(api.child);
    }
  };
  try {
    await one("SQLite", { DATA_DIR: join(dir, "api"), PAYMENTS: "sandbox", SEED: "true" });
    const url = await findPostgres();
    if (url) {
      const schema = await benchSchema(url);
      try {
        await one("PostgreSQL", postgresEnv(schema.url, randomBytes(32).toString("base64url")));
      } finally {
        await schema.drop();
      }
    } else figures.PostgreSQL = "skipped: no PostgreSQL server answers";
    return figures;
  } finally {
    await stopChild(bare.child);
    rmSync(dir, { recursive: true, force: true });
  }
}
