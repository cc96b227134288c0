// The closed-loop load generator: `connections` keep-alive requests in flight at a time, and
// the figures of a run (count, errors, latencies, statuses).
import { Agent, request } from "node:http";

/** Connections the closed loops keep in flight. */
export const CONNECTIONS = 50;

export type Figures = Record<string, number | string>;

export type LoadResult = {
  count: number;
  errors: number;
  seconds: number;
  latencies: number[];
  statuses: Map<number, number>;
};

export type Target = {
  url: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body and extra headers of request `i`, sent on connection `connection`. */
  body: (i: number, connection: number) => { body: string; headers?: Record<string, string> };
};

/** Keeps `connections` requests in flight until `maxRequests` or `maxMs`, whichever comes first. */
export async function load(
  target: Target,
  options: { connections: number; maxRequests: number; maxMs: number },
): Promise<LoadResult> {
  const url = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let started = 0;
  let errors = 0;
  const t0 = performance.now();
  const deadline = t0 + options.maxMs;
  const one = (i: number, connection: number) =>
    new Promise<void>((done) => {
      const { body, headers } = target.body(i, connection);
      const begin = performance.now();
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: target.method,
          path: target.path,
          agent,
          headers: { ...target.headers, ...headers, "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          res.on("data", () => {});
          res.on("end", () => {
            latencies.push(performance.now() - begin);
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            if ((res.statusCode ?? 500) >= 400) errors += 1;
            done();
          });
        },
      );
      req.on("error", () => {
        errors += 1;
        done();
      });
      req.end(body);
    });
  const worker = async (connection: number) => {
    while (started < options.maxRequests && performance.now() < deadline) {
      started += 1;
      await one(started, connection);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, c) => worker(c)));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { count: latencies.length, errors, seconds, latencies, statuses };
}

export function combine(results: LoadResult[]): LoadResult {
  const total: LoadResult = { count: 0, errors: 0, seconds: 0, latencies: [], statuses: new Map() };
  for (const r of results) add(total, r);
  return total;
}

export function add(total: LoadResult, r: LoadResult): void {
  total.count += r.count;
  total.errors += r.errors;
  total.seconds += r.seconds;
  total.latencies.push(...r.latencies);
  for (const [status, n] of r.statuses)
    total.statuses.set(status, (total.statuses.get(status) ?? 0) + n);
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
