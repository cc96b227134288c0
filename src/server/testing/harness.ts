// In-process test server and client. The server starts on port 0 with a temporary data folder,
// a settable clock, the fixture catalogue and response validation on; the client calls it through
// the browser's own client (src/client/client.ts), which checks every answer with the contract.
//
// The database is SQLite by default; `database: "pglite"` runs the server on an in-process
// PostgreSQL (testing/pglite.ts), `database: "postgres"` on a schema of its own of the real server
// of DATABASE_URL (testing/postgres.ts). TEST_DATABASE changes the default for a whole run;
// setTestDatabase() for one test file, which puts the previous default back when it ends.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { z } from "zod";
import type { CallArgs, CallOptions } from "../../client/call-types.ts";
import { createApiClient } from "../../client/client.ts";
import { type Endpoint, ErrorBody } from "../../contract/common.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { type TestClock, testClock } from "../clock.ts";
import { Users } from "../db/users.ts";
import { memoryLogger } from "../log.ts";
import { type RunningServer, type StartOptions, startServer } from "../main.ts";
import { DEMO_PASSWORD } from "../seed.ts";
import type { RenewalRun } from "../services/renewals.ts";
import { fixtureCatalog, TEST_NOW } from "./fixture-catalog.ts";

/** Extra request headers a test sends (X-Forwarded-For behind a proxy, ...). */
type Extra = { headers?: Record<string, string> };

/** The browser client's options for this endpoint, plus extra headers. */
export type TestCallArgs<E extends Endpoint> =
  CallArgs<E> extends [infer O] ? [options: O & Extra] : [options?: CallOptions<E> & Extra];

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
    return this.send(`${this.base}${path}`, init);
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookieHeader);
    const response = await fetch(url, { redirect: "manual", ...init, headers });
    this.remember(response.headers);
    return response;
  }

  /**
   * Calls an endpoint of the contract through the browser's client (src/client/client.ts), so the
   * server is tested with the very requests the checkout sends and every answer is validated
   * with the contract. An answer outside the contract, or no answer at all, throws: a test must
   * not pass on it.
   */
  async call<E extends Endpoint>(
    endpoint: E,
    ...args: TestCallArgs<E>
  ): Promise<Answer<z.output<E["response"]>>> {
    const { headers: extra, ...options } = args[0] ?? {};
    // One client per call: its fetch keeps this call's answer (for the headers) and adds the
    // cookies and extra headers, even when a test runs calls side by side.
    let answered: Response | undefined;
    const client = createApiClient({
      baseUrl: this.base,
      version: "test",
      fetch: async (url, init) => {
        const headers = new Headers(init.headers);
        for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
        answered = await this.send(url, { ...init, headers });
        return answered;
      },
    });
    const result = await client.call(endpoint, ...([options] as unknown as CallArgs<E>));
    const headers = answered?.headers ?? new Headers();
    if (result.ok && result.status < 300) {
      // A 2xx value is the response schema's (only `acceptsBelow500` answers are the other kind).
      const body = result.value as z.output<E["response"]>;
      return { ok: true, status: result.status, body, headers };
    }
    // The user info call's signed-out answer (401) is a value for the browser; tests read it as
    // the error it also is.
    if (result.ok) {
      return { ok: false, status: result.status, body: ErrorBody.parse(result.value), headers };
    }
    const { error } = result;
    if (
      error.kind === "http" &&
      error.errorCode !== undefined &&
      typeof error.status === "number"
    ) {
      return {
        ok: false,
        status: error.status,
        body: {
          message: error.message,
          error_code: error.errorCode,
          ...(error.action ? { action: error.action } : {}),
        },
        headers,
      };
    }
    throw new Error(
      `${endpoint.method} ${endpoint.path}: ${error.kind} (${error.status}) ${error.message}${error.detail ? `: ${error.detail}` : ""}`,
    );
  }
}

export type TestDatabase = "sqlite" | "pglite" | "postgres";

function isTestDatabase(value: string | undefined): value is TestDatabase {
  return value === "sqlite" || value === "pglite" || value === "postgres";
}

let defaultDatabase: TestDatabase = isTestDatabase(process.env.TEST_DATABASE)
  ? process.env.TEST_DATABASE
  : "sqlite";

/**
 * The database of the test servers started from now on; returns the default it replaces. Test
 * files share this module when vitest runs them without isolation (vitest.config.ts), so a file
 * that sets it puts the previous default back in its afterAll, or every later file in the same
 * worker would run on this database too.
 */
export function setTestDatabase(database: TestDatabase): TestDatabase {
  const previous = defaultDatabase;
  defaultDatabase = database;
  return previous;
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
  /** A new account whose address is verified (as trials and team joins need), signed in. */
  verifiedAccount(email: string, password: string): Promise<{ client: TestClient; userId: number }>;
  /** Moves a settable clock (`CLOCK: "settable"`) through /dev/clock; what the renewals did. */
  moveClock(advanceMs: number): Promise<RenewalRun>;
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
    // Tests that move the clock get renewals only when they ask for them ({ renewals: {} }).
    renewals: false,
    // Tests count PayPal's calls: the start's plan sync only when they ask ({ paypalPlans: true }).
    paypalPlans: false,
    // Likewise the scheduled reconciliation of Stripe's payments ({ reconcile: {} }).
    reconcile: false,
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
      const { api } = await import("../../contract/index.ts");
      const answer = await client.call(api.signIn, { body: { email, password } });
      if (!answer.ok) throw new Error(`Sign-in of ${email} failed: ${answer.body.message}`);
      return client;
    },
    async verifiedAccount(email, password) {
      const client = new TestClient(running.url);
      const { api } = await import("../../contract/index.ts");
      const answer = await client.call(api.signUp, {
        body: { email, password, firstName: "Ada", lastName: "Team" },
      });
      if (!answer.ok) throw new Error(`Sign-up of ${email} failed: ${answer.body.message}`);
      const userId = answer.body.userId;
      await running.deps.db.transaction((tx) => Users.update(tx, userId, { emailVerified: true }));
      return { client, userId };
    },
    async moveClock(advanceMs) {
      const response = await fetch(`${running.url}/dev/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advanceMs }),
      });
      const body = (await response.json()) as { renewals: RenewalRun };
      if (response.status !== 200) throw new Error(`/dev/clock: ${JSON.stringify(body)}`);
      return body.renewals;
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
