// PostgreSQL behind the Db seam (DATABASE_URL; docs/decisions/0014-postgresql.md), through
// Kysely's PostgresDialect on a node-postgres pool (decision 0082).
//
// The queries are the same as on SQLite: `?` placeholders are numbered here ($1, $2, ...),
// booleans are sent as 0/1 (the columns are integers), BIGINT and NUMERIC results are read as
// JavaScript numbers, and a unique violation (23505) is thrown as `UniqueViolation`.
//
// Each transaction runs on a connection of its own from the pool, BEGIN ISOLATION LEVEL
// SERIALIZABLE ... COMMIT: it behaves as if it ran alone, as every transaction does on SQLite (one
// writer at a time), so code written against SQLite keeps its meaning with several servers on one
// database. The price is that PostgreSQL may abort one of two overlapping transactions
// (serialization failure, 40001) or break a deadlock (40P01); the transaction is then run again
// from the start, up to 20 attempts. That is safe because a transaction callback does nothing but
// database work (db.ts), and nothing of an aborted attempt was committed. Attempts after the first
// wait their turn in a lane of this process, one at a time, so that a burst of transactions on one
// row (50 purchases of one account at once) settles instead of failing each other again and again.
//
// The pool is anything shaped like Kysely's `PostgresPool` (node-postgres's `Pool`): `pg` in
// production, its statements prepared once per connection (pg-prepared.ts), an in-process PGlite
// in the tests (testing/pglite.ts), so both run this same code.
import {
  CompiledQuery,
  Kysely,
  type PostgresPool,
  type PostgresPoolClient,
  type QueryResult,
} from "kysely";
import pg from "pg";
import {
  type Db,
  type Queryable,
  type Row,
  type SqlValue,
  type TransactionOptions,
  UniqueViolation,
} from "./db.ts";
import { postgresDialect } from "./pg-dialect.ts";
import { isStalePlan, preparedPool } from "./pg-prepared.ts";
import { numberPlaceholders } from "./placeholders.ts";
import type { Database } from "./schema.ts";

export type { PostgresPool };

/** SQLSTATEs after which a transaction is run again: serialization failure, deadlock. */
const RETRYABLE = new Set(["40001", "40P01"]);
const UNIQUE_VIOLATION = "23505";

export type PostgresOptions = {
  /** Attempts of a transaction that keeps failing to serialize (default 20). */
  maxAttempts?: number;
};

function toParam(value: SqlValue): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value);
  return value;
}

const params = (values: readonly SqlValue[]) => values.map(toParam);

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function mapError(error: unknown): unknown {
  if (sqlState(error) === UNIQUE_VIOLATION && error instanceof Error) {
    const constraint = (error as { constraint?: unknown }).constraint;
    return new UniqueViolation(
      error.message,
      typeof constraint === "string" ? constraint : null,
      error,
    );
  }
  return error;
}

/** Whether running the transaction again may succeed (and nothing of it was committed). */
export function isRetryable(error: unknown): boolean {
  const code = sqlState(error) ?? sqlState((error as { cause?: unknown } | null)?.cause);
  return code !== undefined && RETRYABLE.has(code);
}

/** The pool, its clients throwing a repeated unique value as UniqueViolation (db.ts). */
function mappedPool(pool: PostgresPool): PostgresPool {
  const clients = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
  const mapped = (client: PostgresPoolClient): PostgresPoolClient => ({
    query: (async (text: string, values: ReadonlyArray<unknown>) => {
      try {
        return await client.query(text, values);
      } catch (error) {
        throw mapError(error);
      }
    }) as PostgresPoolClient["query"],
    release: (destroy) => client.release(destroy),
  });
  return {
    options: pool.options,
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = mapped(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

/** The seam's statements on `kysely` (the pool, or one connection: a transaction's). */
function queryable(kysely: Kysely<Database>): Queryable {
  const call = (sql: string, values: readonly SqlValue[]): Promise<QueryResult<Row>> =>
    kysely.executeQuery<Row>(CompiledQuery.raw(numberPlaceholders(sql), params(values)));
  return {
    kysely,
    async get<T>(sql: string, values: readonly SqlValue[] = []) {
      return (await call(sql, values)).rows[0] as T | undefined;
    },
    async all<T>(sql: string, values: readonly SqlValue[] = []) {
      return (await call(sql, values)).rows as T[];
    },
    async run(sql: string, values: readonly SqlValue[] = []) {
      return { changes: Number((await call(sql, values)).numAffectedRows ?? 0) };
    },
    async exec(sql: string) {
      // Without parameters node-postgres sends the text as a script (the simple protocol).
      await kysely.executeQuery(CompiledQuery.raw(sql));
    },
  };
}

const raw = (sql: string) => CompiledQuery.raw(sql);

export class PostgresDb implements Db {
  readonly dialect = "postgres";
  readonly kysely: Kysely<Database>;
  private readonly maxAttempts: number;
  /** Reads and `runAlone`'s writes outside transactions: one statement on any pooled connection. */
  private readonly direct: Queryable;
  private closed = false;
  /** Transactions run again after a serialization failure or deadlock (for the tests, figures). */
  retries = 0;
  private lane: Promise<void> = Promise.resolve();

  constructor(pool: PostgresPool, options: PostgresOptions = {}) {
    this.kysely = new Kysely<Database>({
      dialect: postgresDialect(mappedPool(pool)),
    });
    this.maxAttempts = options.maxAttempts ?? 20;
    this.direct = queryable(this.kysely);
  }

  /** Reads outside a transaction: one statement on any pooled connection, committed data only. */
  get<T = Row>(sql: string, values?: readonly SqlValue[]): Promise<T | undefined> {
    return this.direct.get<T>(sql, values);
  }

  all<T = Row>(sql: string, values?: readonly SqlValue[]): Promise<T[]> {
    return this.direct.all<T>(sql, values);
  }

  /** A write outside an explicit transaction is a transaction of its own (and is retried). */
  run(sql: string, values?: readonly SqlValue[]): Promise<{ changes: number }> {
    return this.transaction((tx) => tx.run(sql, values));
  }

  exec(sql: string): Promise<void> {
    return this.transaction((tx) => tx.exec(sql));
  }

  /**
   * One statement in autocommit on any pooled connection: one round trip instead of BEGIN, the
   * statement and COMMIT, and no serializable snapshot to conflict with (db.ts says which
   * statements qualify). A lost connection is not retried, as in a transaction.
   */
  runAlone(sql: string, values?: readonly SqlValue[]): Promise<{ changes: number }> {
    if (this.closed) return Promise.reject(new Error("The database is closed."));
    return this.direct.run(sql, values);
  }

  async transaction<T>(
    work: (tx: Queryable) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    if (this.closed) throw new Error("The database is closed.");
    const begin =
      options.isolation === "read committed"
        ? "BEGIN ISOLATION LEVEL READ COMMITTED"
        : "BEGIN ISOLATION LEVEL SERIALIZABLE";
    for (let attempt = 1; ; attempt++) {
      // A transaction that failed to serialize runs again in the retry lane, one at a time in
      // this process: the transactions of a burst on one row then commit one after the other
      // instead of failing each other again and again (first attempts still run side by side).
      const leave = attempt > 1 ? await this.enterLane() : null;
      try {
        return await this.attempt(begin, work);
      } catch (error) {
        // A stale prepared statement (pg-prepared.ts) left with its connection: run again.
        if (attempt < this.maxAttempts && (isRetryable(error) || isStalePlan(error))) {
          this.retries += 1;
          continue;
        }
        throw error;
      } finally {
        leave?.();
      }
    }
  }

  /** Waits for the lane; the function returned leaves it. */
  private async enterLane(): Promise<() => void> {
    let leave: () => void = () => {};
    const left = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const before = this.lane;
    this.lane = before.then(() => left);
    await before;
    return leave;
  }

  /**
   * One attempt: BEGIN, the work, COMMIT on one pooled connection (Kysely's `connection()`);
   * ROLLBACK when anything fails. BEGIN and COMMIT are ours rather than Kysely's transaction
   * builder's, which would hide a failed ROLLBACK behind its own error.
   */
  private attempt<T>(begin: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.kysely.connection().execute(async (connection) => {
      await connection.executeQuery(raw(begin));
      try {
        const value = await work(queryable(connection));
        const { rows } = await connection.executeQuery<{ command?: string }>(raw("COMMIT"));
        // PostgreSQL answers COMMIT with ROLLBACK when a statement failed and the work went on.
        if (rows[0]?.command === "ROLLBACK") throw new Error("The transaction was rolled back.");
        return value;
      } catch (error) {
        try {
          await connection.executeQuery(raw("ROLLBACK"));
        } catch {
          // The connection is gone (a COMMIT cut off may or may not have committed): node-postgres'
          // pool drops it when it is released, and the error is not retried.
          if (isRetryable(error))
            throw new Error("The database connection was lost.", { cause: error });
        }
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.kysely.destroy();
  }
}

/** BIGINT (20) and NUMERIC (1700, what SUM of a BIGINT gives) as numbers, as SQLite returns them. */
export function toNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) && Number.isInteger(value)) {
    throw new Error(`A database integer (${text}) is beyond JavaScript's safe integers.`);
  }
  return value;
}

/** Query parameters of a connection URL that carry a credential (libpq's and node-postgres's). */
const SECRET_PARAM = /pass|secret|token|key|cert|auth/i;

/**
 * A database URL fit to print: the password of its user part and every query parameter that
 * carries a credential (`password`, `sslpassword`, `sslkey`, ...) become `***`. Whatever is
 * logged or put into a message about DATABASE_URL goes through this one function. A value that
 * is not a URL is not printed at all: it could be a libpq `key=value` string with a password.
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(not a URL)";
  }
  if (parsed.password) parsed.password = "***";
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, "***");
  }
  // `?options=-c password=...` is not a libpq credential, but anything after "password" in any
  // value is hidden all the same.
  for (const [name, value] of [...parsed.searchParams]) {
    if (/pass/i.test(value)) parsed.searchParams.set(name, "***");
  }
  return parsed.toString();
}

/** A message (a driver's error) with every credential of the URL taken out. */
export function redactCredentials(message: string, url: string): string {
  let out = message;
  try {
    const parsed = new URL(url);
    const secrets = [
      decodeURIComponent(parsed.password),
      ...[...parsed.searchParams].filter(([n]) => SECRET_PARAM.test(n)).map(([, v]) => v),
    ].filter((s) => s.length >= 3);
    for (const secret of secrets) out = out.split(secret).join("***");
  } catch {
    // Not a URL: nothing known to take out.
  }
  return out.split(url).join(redactDatabaseUrl(url));
}

export type PostgresConnection = {
  /** postgres:// or postgresql:// URL, as libpq takes it (`?options=-c search_path=...` works). */
  url: string;
  /** Connections per server process (default 10). */
  poolSize?: number;
};

/** BIGINT and NUMERIC as numbers (toNumber); every other type as node-postgres reads it. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === 20 || oid === 1700
      ? toNumber
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

/** A node-postgres pool that reads BIGINT and NUMERIC as numbers. */
function createPgPool(connection: PostgresConnection): pg.Pool {
  const pool = new pg.Pool({
    connectionString: connection.url,
    connectionTimeoutMillis: 10_000,
    types,
    max: connection.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
  });
  // An idle client whose server went away emits here; without a listener it would stop the
  // process. The next query gets a new connection.
  pool.on("error", () => {});
  return pool;
}

export function openPostgres(connection: PostgresConnection, options?: PostgresOptions) {
  return new PostgresDb(preparedPool(createPgPool(connection)), options);
}
