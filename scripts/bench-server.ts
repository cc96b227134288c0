// The API server's figures for `npm run bench` (benchServer() returns them; it prints nothing).
// `node scripts/bench-server.ts` runs it alone and prints a table.
//
// - Order-summary throughput as a ratio to a bare node:http JSON handler measured in the same run,
//   both in child processes, loaded from this process over loopback with 50 keep-alive
//   connections; and the order summary's p99 latency at 50 connections. Goal: ratio ≥ 0.3.
// - Committed orders per second (POST /api/3/payment/upgrade, a new Idempotency-Key each, sandbox
//   card, synchronous=FULL) as a ratio to raw SQLite inserts of the same order rows, one commit
//   each, with the same durability (WAL, synchronous=FULL) on the same disk. Goal: ratio ≥ 0.25.
//
// Load is bounded in count and time, on 127.0.0.1 only.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";

const self = fileURLToPath(import.meta.url);
const CONNECTIONS = 50;

type Figures = Record<string, number | string>;

type LoadResult = {
  count: number;
  errors: number;
  seconds: number;
  latencies: number[];
  statuses: Map<number, number>;
};

type Target = {
  url: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: (i: number) => { body: string; headers?: Record<string, string> };
};

/** Keeps `connections` requests in flight until `maxRequests` or `maxMs`, whichever comes first. */
async function load(
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
  const one = (i: number) =>
    new Promise<void>((done) => {
      const { body, headers } = target.body(i);
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
  const worker = async () => {
    while (started < options.maxRequests && performance.now() < deadline) {
      started += 1;
      await one(started);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { count: latencies.length, errors, seconds, latencies, statuses };
}

const ROUNDS = 6;

function combine(results: LoadResult[]): LoadResult {
  const total: LoadResult = { count: 0, errors: 0, seconds: 0, latencies: [], statuses: new Map() };
  for (const r of results) add(total, r);
  return total;
}

function add(total: LoadResult, r: LoadResult): void {
  total.count += r.count;
  total.errors += r.errors;
  total.seconds += r.seconds;
  total.latencies.push(...r.latencies);
  for (const [status, n] of r.statuses)
    total.statuses.set(status, (total.statuses.get(status) ?? 0) + n);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

// On Linux with taskset and two or more CPUs, the servers run on the last CPU and this process
// (the load generator) on the others, so that the generator does not take the servers' CPU.
const cpus = availableParallelism();
const pin = process.platform === "linux" && cpus >= 2 && existsSync("/usr/bin/taskset");
if (pin)
  spawnSync("/usr/bin/taskset", ["-pc", `0-${cpus - 2}`, String(process.pid)], { stdio: "ignore" });

function startChild(mode: string, dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((done, fail) => {
    const child = pin
      ? spawn("/usr/bin/taskset", ["-c", String(cpus - 1), process.execPath, self, mode, dataDir], {
          stdio: ["ignore", "pipe", "pipe"],
        })
      : spawn(process.execPath, [self, mode, dataDir], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+)/.exec(out);
      if (m?.[1]) done({ child, url: m[1] });
    });
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.on("exit", (code) =>
      fail(new Error(`${mode} exited with ${code}: ${err.slice(0, 500)}`)),
    );
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.removeAllListeners("exit");
    child.once("exit", () => done());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 3000).unref();
  });
}

async function post(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { response, json: (await response.json()) as Record<string, unknown> };
}

async function signIn(url: string, email: string): Promise<string> {
  const { response } = await post(url, "/api/5/auth/signin", { email, password: "demo-password" });
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
  if (!response.ok || !cookie)
    throw new Error(`bench: sign-in of ${email} failed (${response.status})`);
  return cookie;
}

/** Raw inserts of the order rows the server wrote, into a fresh file with the same pragmas. */
function rawInserts(
  dir: string,
  rows: Record<string, unknown>[],
  maxMs: number,
): { perSecond: number; count: number } {
  const db = new DatabaseSync(join(dir, "raw.sqlite"));
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = FULL");
  const columns = Object.keys(rows[0] ?? {}).filter((c) => c !== "seq");
  db.exec(
    `CREATE TABLE orders (seq INTEGER PRIMARY KEY AUTOINCREMENT, ${columns.map((c) => (c === "id" ? "id TEXT NOT NULL UNIQUE" : c)).join(", ")})`,
  );
  const insert = db.prepare(
    `INSERT INTO orders (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  const t0 = performance.now();
  let count = 0;
  for (let round = 0; performance.now() - t0 < maxMs && round < 20; round++) {
    for (const row of rows) {
      // One row, one autocommit transaction: what committing one order alone costs.
      insert.run(
        ...columns.map((c) =>
          c === "id" ? `${row[c]}-${round}` : (row[c] as string | number | null),
        ),
      );
      count += 1;
      if (performance.now() - t0 >= maxMs) break;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  db.close();
  return { perSecond: count / seconds, count };
}

export async function benchServer(): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), "bench-server-"));
  const api = await startChild("child-api", join(dir, "api"));
  const bare = await startChild("child-bare", dir);
  try {
    const cookie = await signIn(api.url, "monthly@demo.test");
    const summaryBody = JSON.stringify({ targetProduct: "wv_bizoct17_12m", seats: 5 });
    const summary: Target = {
      url: api.url,
      method: "POST",
      path: "/api/4/payment/summary",
      headers: { "content-type": "application/json", cookie },
      body: () => ({ body: summaryBody }),
    };
    const check = await post(api.url, summary.path, JSON.parse(summaryBody), { cookie });
    if (!check.response.ok)
      throw new Error(`bench: order summary answered ${check.response.status}`);
    const bareTarget: Target = {
      ...summary,
      url: bare.url,
      headers: { "content-type": "application/json" },
    };

    const limits = { connections: CONNECTIONS, maxRequests: 100_000, maxMs: 700 };
    await load(summary, limits); // warm-up
    await load(bareTarget, limits);
    // Interleaved rounds, so that both see the same background load of a shared machine.
    const summaryRun = combine([]);
    const bareRun = combine([]);
    for (let round = 0; round < ROUNDS; round++) {
      add(summaryRun, await load(summary, limits));
      add(bareRun, await load(bareTarget, limits));
    }
    const summaryRate = summaryRun.count / summaryRun.seconds;
    const bareRate = bareRun.count / bareRun.seconds;

    // Committed orders: one new Idempotency-Key per order.
    const orderBody = JSON.stringify({ product: { code: "single_export_hd" }, newCart: true });
    const orders: Target = {
      url: api.url,
      method: "POST",
      path: "/api/3/payment/upgrade",
      headers: { "content-type": "application/json", cookie },
      body: (i) => ({
        body: orderBody,
        headers: { "idempotency-key": `bench-${process.pid}-${i}` },
      }),
    };
    await load(orders, { connections: CONNECTIONS, maxRequests: 200, maxMs: 1000 }); // warm-up
    const orderRun = await load(orders, {
      connections: CONNECTIONS,
      maxRequests: 10_000,
      maxMs: 4000,
    });
    const orderRate = (orderRun.count - orderRun.errors) / orderRun.seconds;
    await stopChild(api.child);
    const written = new DatabaseSync(join(dir, "api", "checkout.sqlite"), { readOnly: true });
    const rows = written
      .prepare("SELECT * FROM orders ORDER BY seq DESC LIMIT 2000")
      .all() as Record<string, unknown>[];
    written.close();
    const raw = rawInserts(dir, rows, 3000);

    return {
      "order summary, requests/s (50 connections)": Math.round(summaryRate),
      "bare node:http JSON handler, requests/s": Math.round(bareRate),
      "order summary / bare handler (goal ≥ 0.3)": Number((summaryRate / bareRate).toFixed(2)),
      "order summary p50 latency, ms": Number(percentile(summaryRun.latencies, 50).toFixed(2)),
      "order summary p99 latency, ms (50 connections)": Number(
        percentile(summaryRun.latencies, 99).toFixed(2),
      ),
      "order summary errors": summaryRun.errors,
      "committed orders/s (upgrade, 50 connections)": Math.round(orderRate),
      "order p99 latency, ms": Number(percentile(orderRun.latencies, 99).toFixed(2)),
      "order errors": orderRun.errors,
      "raw SQLite inserts/s (same rows, one commit each)": Math.round(raw.perSecond),
      "orders / raw inserts (goal ≥ 0.25)": Number((orderRate / raw.perSecond).toFixed(2)),
    };
  } finally {
    await stopChild(api.child);
    await stopChild(bare.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function childApi(dataDir: string): Promise<void> {
  const { startServer } = await import("../src/server/main.ts");
  const running = await startServer({
    port: 0,
    host: "127.0.0.1",
    env: { ...process.env, DATA_DIR: dataDir, PAYMENTS: "sandbox", SEED: "true" },
    quiet: true,
    log: {
      info: () => {},
      warn: () => {},
      error: (m: string, e?: unknown) => process.stderr.write(`${m} ${String(e)}\n`),
    },
    rateLimitScale: 1_000_000,
    passwordCost: 10,
  });
  process.on("SIGTERM", () => {
    running.close().then(() => process.exit(0));
  });
  process.stdout.write(`READY ${running.url}\n`);
}

function childBare(): void {
  // What any JSON API must do at least: read the body, parse it, answer JSON.
  const answer = JSON.stringify({
    total: 0,
    subTotal: 0,
    taxRates: [{ type: "COMBINED", taxAmount: 0 }],
    salesTax: 0,
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString() || "{}");
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(answer),
      });
      res.end(answer);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

if (process.argv[1] && resolve(process.argv[1]) === self) {
  const [mode, dataDir] = process.argv.slice(2);
  if (mode === "child-api" && dataDir) await childApi(dataDir);
  else if (mode === "child-bare") childBare();
  else {
    const figures = await benchServer();
    for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(52)} ${value}`);
  }
}
