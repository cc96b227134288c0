// The `orders` mode: PostgreSQL's committed orders in a closed loop (no goal of its own since
// issue 35; kept for work on that request), with the server's and the database's CPU per order.
import { randomBytes } from "node:crypto";
import { endpoints } from "../../src/contract/endpoints.ts";
import { cardAccounts } from "./accounts.ts";
import { cpus, startChild, stopChild } from "./children.ts";
import { cpuMs, databaseCpuMs, machineCpuMs } from "./cpu.ts";
import { benchSchema, findPostgres, postgresEnv } from "./database.ts";
import {
  CONNECTIONS,
  combine,
  type Figures,
  type LoadResult,
  load,
  percentile,
  type Target,
} from "./load.ts";

/**
 * Committed orders (one new Idempotency-Key each, a single export) with CONNECTIONS connections in
 * all, spread evenly over the servers at `urls`, after a warm-up. Each connection orders for the
 * account of its cookie (`cookies[connection]`, or the one cookie for all): fifty customers, or one
 * customer whose orders its account lock takes one at a time.
 */
export let orderLoads = 0;

export async function orderLoad(
  urls: string[],
  cookies: string[],
  pids: (number | undefined)[] = [],
): Promise<OrderRun> {
  const orderBody = JSON.stringify({ product: { code: "single_export_hd" }, newCart: true });
  const connections = Math.floor(CONNECTIONS / urls.length);
  // Keys of their own for each load, so that loads of the same accounts are no replays.
  const loadNumber = ++orderLoads;
  const target = (url: string, n: number, server: number): Target => ({
    url,
    method: "POST",
    path: endpoints.upgrade.path,
    headers: { "content-type": "application/json" },
    body: (i, connection) => ({
      body: orderBody,
      headers: {
        cookie: cookies[(server * connections + connection) % cookies.length] ?? "",
        "idempotency-key": `bench-${process.pid}-${loadNumber}-${url}-${n}-${i}`,
      },
    }),
  });
  const all = (round: number, limits: { maxRequests: number; maxMs: number }) =>
    Promise.all(
      urls.map((url, server) => load(target(url, round, server), { connections, ...limits })),
    );
  await all(0, { maxRequests: 200, maxMs: 1000 }); // warm-up
  const machineBefore = machineCpuMs();
  const databaseBefore = databaseCpuMs();
  const serversBefore = pids.map(cpuMs);
  const runs = await all(1, { maxRequests: 10_000, maxMs: 4000 });
  // Side by side: the rate is all orders over the longest run's time.
  const total = combine(runs);
  total.seconds = Math.max(...runs.map((r) => r.seconds));
  const serversMs = pids.reduce<number>(
    (sum, pid, i) => sum + cpuMs(pid) - (serversBefore[i] ?? 0),
    0,
  );
  return {
    ...total,
    busyCores: (machineCpuMs() - machineBefore) / (total.seconds * 1000),
    databaseCpuUs: ((databaseCpuMs() - databaseBefore) * 1000) / Math.max(1, total.count),
    serverCpuUs: pids.length === 0 ? Number.NaN : (serversMs * 1000) / Math.max(1, total.count),
  };
}

export type OrderRun = LoadResult & {
  /** The whole machine's CPU time during the run over its length: cores kept busy. */
  busyCores: number;
  /** CPU time PostgreSQL's processes on this machine spent per order, µs (NaN where unknown). */
  databaseCpuUs: number;
  /** CPU time the servers' processes spent per order, µs (NaN without their process ids). */
  serverCpuUs: number;
};

/**
 * PostgreSQL's committed orders only (the `orders` mode): three runs of fifty accounts on one
 * server, each with the server's and the database's CPU per order, for work on that request.
 */
export async function benchOrdersOnly(): Promise<Figures> {
  const url = await findPostgres();
  if (!url) return { PostgreSQL: "skipped: no PostgreSQL server answers" };
  const schema = await benchSchema(url);
  const api = await startChild(
    "child-api",
    postgresEnv(schema.url, randomBytes(32).toString("base64url")),
  );
  try {
    const cookies = await cardAccounts(api.url, CONNECTIONS);
    const figures: Figures = {};
    for (let run = 1; run <= 3; run++) {
      const orders = await orderLoad([api.url], cookies, [api.child.pid]);
      figures[`run ${run}: committed orders/s`] = Math.round(
        (orders.count - orders.errors) / orders.seconds,
      );
      figures[`run ${run}: order p99 latency, ms`] = Number(
        percentile(orders.latencies, 99).toFixed(2),
      );
      figures[`run ${run}: server CPU per order, µs`] = Math.round(orders.serverCpuUs);
      figures[`run ${run}: database CPU per order, µs`] = Math.round(orders.databaseCpuUs);
      figures[`run ${run}: cores busy (of ${cpus})`] = Number(orders.busyCores.toFixed(2));
    }
    return figures;
  } finally {
    await stopChild(api.child);
    await schema.drop();
  }
}
