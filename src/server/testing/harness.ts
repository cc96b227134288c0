// In-process test server and client. The server starts on port 0 with a temporary data folder,
// a settable clock, the fixture catalogue and response validation on; the client calls it with
// fetch and checks every answer with the contract schema the browser client uses.
//
// The database is SQLite by default; `database: "pglite"` runs the server on an in-process
// PostgreSQL (testing/pglite.ts), `database: "postgres"` on a schema of its own of the real server
// of DATABASE_URL (testing/postgres.ts). TEST_DATABASE, or setTestDatabase() before the servers
// start, changes the default, for a whole test file or run.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { z } from "zod";
import { type Endpoint, ErrorBody, pathFor } from "../../api/contract/common.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { type TestClock, testClock } from "../clock.ts";
import { memoryLogger } from "../log.ts";
import { type RunningServer, type StartOptions, startServer } from "../main.ts";
import { DEMO_PASSWORD } from "../seed.ts";
import { fixtureCatalog, TEST_NOW } from "./fixture-catalog.ts";

export type CallOptions = {
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  idempotencyKey?: string;
};

export type Answer<T> =
  | { ok: true; status: number; body: T; headers: Headers }
  | { ok: false; status: number; body: z.output<typeof ErrorBody>; headers: Headers };

export class TestClient {
  readonly base: string;
  private cookies = new Map<string, string>();

  constructor(base: string) {
    this.base = base;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  remember(headers: Headers): void {
    for (const cookie of headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/Max-Age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** A raw request with this client's cookies. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookieHeader);
    const response = await fetch(`${this.base}${path}`, { redirect: "manual", ...init, headers });
    this.remember(response.headers);
    return response;
  }

  /** Calls an endpoint of the contract and validates the answer with its schemas. */
  async call<E extends Endpoint>(
    endpoint: E,
    options: CallOptions = {},
  ): Promise<Answer<z.output<E["response"]>>> {
    let path = pathFor(endpoint.path, options.params);
    if (options.query) path += `?${new URLSearchParams(options.query)}`;
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
    const response = await this.fetch(path, {
      method: endpoint.method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const json: unknown = await response.json();
    if (response.ok) {
      const body = endpoint.response.parse(json) as z.output<E["response"]>;
      return { ok: true, status: response.status, body, headers: response.headers };
    }
    return {
      ok: false,
      status: response.status,
      body: ErrorBody.parse(json),
      headers: response.headers,
    };
  }
}

export type TestDatabase = "sqlite" | "pglite" | "postgres";

function isTestDatabase(value: string | undefined): value is TestDatabase {
  return value === "sqlite" || value === "pglite" || value === "postgres";
}

let defaultDatabase: TestDatabase = isTestDatabase(process.env.TEST_DATABASE)
  ? process.env.TEST_DATABASE
  : "sqlite";

/** The database of the test servers started from now on in this test file. */
export function setTestDatabase(database: TestDatabase): void {
  defaultDatabase = database;
}

/** An open database of the kind asked for, and what closes and removes it. */
async function testDatabase(
  kind: TestDatabase,
): Promise<NonNullable<StartOptions["database"]> | null> {
  if (kind === "sqlite") return null;
  const secret = randomBytes(32);
  if (kind === "pglite") {
    const { openPglite } = await import("./pglite.ts");
    return { db: await openPglite(), secret, label: "PGlite (in-process PostgreSQL)" };
  }
  const { openTestPostgres, postgresUrl, POSTGRES_SKIPPED } = await import("./postgres.ts");
  const url = postgresUrl();
  if (!url) throw new Error(POSTGRES_SKIPPED);
  const { db, schema } = await openTestPostgres(url);
  return { db, secret, label: `PostgreSQL schema ${schema.schema}` };
}

export type TestServer = {
  running: RunningServer;
  clock: TestClock;
  log: ReturnType<typeof memoryLogger>;
  catalog: Catalog;
  dataDir: string;
  client(): TestClient;
  /** A client signed in as a demo account. */
  signedIn(email: string, password?: string): Promise<TestClient>;
  close(): Promise<void>;
};

export async function startTestServer(
  options: {
    seed?: boolean;
    env?: Record<string, string>;
    clock?: TestClock;
    catalog?: Catalog;
    /** The test expects the server to log errors (else close() fails on them). */
    allowServerErrors?: boolean;
    /** Where the server stores (default: SQLite, or TEST_DATABASE, or setTestDatabase()). */
    testDatabase?: TestDatabase;
  } & Partial<StartOptions> = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "checkout-server-test-"));
  const database =
    options.database ?? (await testDatabase(options.testDatabase ?? defaultDatabase));
  const clock = options.clock ?? testClock(TEST_NOW);
  const log = memoryLogger();
  const catalog = options.catalog ?? fixtureCatalog();
  const start = startServer({
    passwordCost: 10,
    rateLimitScale: 100,
    validateResponses: true,
    ...options,
    ...(database ? { database } : {}),
    port: 0,
    host: "127.0.0.1",
    env: {
      DATA_DIR: dataDir,
      PAYMENTS: "sandbox",
      SEED: options.seed === false ? "false" : "true",
      ...options.env,
    },
    clock,
    log,
    catalog,
  });
  let running: RunningServer;
  try {
    running = await start;
  } catch (error) {
    await database?.db.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const server: TestServer = {
    running,
    clock,
    log,
    catalog,
    dataDir,
    client: () => new TestClient(running.url),
    async signedIn(email, password = DEMO_PASSWORD) {
      const client = new TestClient(running.url);
      const { api } = await import("../../api/contract/index.ts");
      const answer = await client.call(api.signIn, { body: { email, password } });
      if (!answer.ok) throw new Error(`Sign-in of ${email} failed: ${answer.body.message}`);
      return client;
    },
    async close() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
      const errors = log.lines.filter((line) => line.startsWith("error"));
      if (errors.length > 0 && !options.allowServerErrors) {
        throw new Error(`The server logged errors:\n${errors.join("\n")}`);
      }
    },
  };
  return server;
}

let counter = 0;
/** A fresh Idempotency-Key. */
export function newKey(): string {
  counter += 1;
  return `test-key-${process.pid}-${Date.now()}-${counter}`;
}
