// Two server processes (testing/children.ts) on one schema of their own of the PostgreSQL server
// of DATABASE_URL, as a deployment behind a proxy runs them, and a browser that uses both.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Db } from "../db/db.ts";
import { openPostgres } from "../db/postgres.ts";
import { type ChildServer, killAll, startChildServer, stopChildServer } from "./children.ts";
import { TestClient } from "./harness.ts";
import { createTestSchema } from "./postgres.ts";

export type TwoServers = {
  a: ChildServer;
  b: ChildServer;
  /** The schema, as the test reads it. */
  db: Db;
  /** Stops both servers and drops the schema. */
  stop(): Promise<void>;
};

/**
 * Starts two servers on a new schema of the server at `url` (with a shared secret and a pool of 5
 * each), with `env` on top: at once, or `oneAfterTheOther`. A failed start stops what it started.
 */
export async function startTwoServers(
  url: string,
  env: Record<string, string>,
  options: { oneAfterTheOther?: boolean } = {},
): Promise<TwoServers> {
  const children: ChildProcess[] = [];
  const schema = await createTestSchema(url);
  const started: ChildServer[] = [];
  let db: Db | undefined;
  const stop = async () => {
    await Promise.all(started.map(stopChildServer));
    killAll(children);
    await db?.close();
    await schema.drop();
  };
  try {
    const serverEnv = {
      DATABASE_URL: schema.url,
      DATABASE_POOL_SIZE: "5",
      SERVER_SECRET: randomBytes(32).toString("base64url"),
      ...env,
    };
    const start = async () => {
      const child = await startChildServer(serverEnv, children);
      started.push(child);
      return child;
    };
    const [a, b] = options.oneAfterTheOther
      ? [await start(), await start()]
      : await Promise.all([start(), start()]);
    if (!a || !b) throw new Error("two servers expected");
    db = openPostgres({ url: schema.url, poolSize: 2 });
    return { a, b, db, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A client of `server` that carries the cookies `from` has: the same browser on the other one. */
export function sameBrowser(from: TestClient, server: ChildServer): TestClient {
  const client = new TestClient(server.url);
  const headers = new Headers();
  for (const pair of from.cookieHeader.split("; ").filter(Boolean)) {
    headers.append("set-cookie", `${pair}; Path=/`);
  }
  client.remember(headers);
  return client;
}
