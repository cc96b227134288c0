// The bench's child processes: the API server (src/server/main.ts, the parent's database
// settings) and the bare node:http JSON handler it is compared with. Each is the entry script
// (scripts/bench-server.ts) run with the mode `child-api` or `child-bare`, pinned to a CPU of
// its own where taskset allows.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

/** The entry script, which a child runs in its child mode. */
const entry = fileURLToPath(new URL("../bench-server.ts", import.meta.url));

// On Linux with taskset and two or more CPUs, the servers run on the last CPU and this process
// (the load generator) on the others, so that the generator does not take the servers' CPU.
export const cpus = availableParallelism();
export const pin = process.platform === "linux" && cpus >= 2 && existsSync("/usr/bin/taskset");
if (pin)
  spawnSync("/usr/bin/taskset", ["-pc", `0-${cpus - 2}`, String(process.pid)], { stdio: "ignore" });

/** The environment of a child: this one's without database settings, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, SERVER_SECRET: _secret, DATA_DIR: _dir, ...rest } = process.env;
  return { ...rest, ...env };
}

export function startChild(
  mode: string,
  env: Record<string, string> = {},
  /** The CPU a server runs on when pinned (default: the last one). */
  cpu = cpus - 1,
): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((done, fail) => {
    const options = {
      stdio: ["ignore", "pipe", "pipe"] as ("ignore" | "pipe")[],
      env: childEnv(env),
    };
    const child = pin
      ? spawn("/usr/bin/taskset", ["-c", String(cpu), process.execPath, entry, mode], options)
      : spawn(process.execPath, [entry, mode], options);
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

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.removeAllListeners("exit");
    child.once("exit", () => done());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 3000).unref();
  });
}

export async function childApi(): Promise<void> {
  const { startServer } = await import("../../src/server/main.ts");
  const running = await startServer({
    port: 0,
    host: "127.0.0.1",
    // The parent chose the database: DATA_DIR, or DATABASE_URL and SERVER_SECRET.
    env: { ...process.env },
    quiet: true,
    log: {
      info: () => {},
      warn: () => {},
      error: (m: string, e?: unknown) => process.stderr.write(`${m} ${String(e)}\n`),
    },
    rateLimitScale: 1_000_000,
    passwordCost: 10,
    // A local run checks its answers against the contract; a deployment, which this measures,
    // does not.
    validateResponses: false,
  });
  process.on("SIGTERM", () => {
    running.close().then(() => process.exit(0));
  });
  process.stdout.write(`READY ${running.url}\n`);
}

export function childBare(): void {
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
