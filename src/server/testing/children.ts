// Servers in child processes (testing/crash-child.ts), for the tests that kill one (crash.test.ts)
// or run two side by side on one database (several-servers.test.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./crash-child.ts", import.meta.url));

export type ChildServer = { process: ChildProcess; url: string };

/**
 * The environment of a child server: this process's, without the database settings of the run
 * (DATABASE_URL is set by CI for the PostgreSQL tests), plus `env`.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, SERVER_SECRET: _secret, DATA_DIR: _dir, ...rest } = process.env;
  return { ...rest, ...env };
}

/** Starts a server; `started` collects it, so that the test can kill what is left at the end. */
export function startChildServer(
  env: Record<string, string>,
  started: ChildProcess[],
): Promise<ChildServer> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CHILD], {
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(proc);
    let out = "";
    let err = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\S+)/.exec(out);
      if (m?.[1]) resolve({ process: proc, url: m[1] });
    });
    proc.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.on("exit", (code) =>
      reject(new Error(`server exited (${code}) before it was ready: ${err}`)),
    );
  });
}

/** Stops a server with SIGTERM (a clean close) and waits for it to exit. */
export function stopChildServer(child: ChildServer): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) {
    return Promise.resolve();
  }
  const stopped = new Promise<void>((resolve) => child.process.once("exit", () => resolve()));
  child.process.kill("SIGTERM");
  return stopped;
}

export function killAll(started: ChildProcess[]): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
}
