// PostgreSQL behind the Db seam (DATABASE_URL; docs/decisions/0014-postgresql.md).
//
// The queries are the same as on SQLite: `?` placeholders are numbered here ($1, $2, ...),
// booleans are sent as 0/1 (the columns are integers), BIGINT and NUMERIC results are read as
// JavaScript numbers, and a unique violation (23505) is thrown as `UniqueViolation`.
//
// Each transaction runs on a client of its own from the pool, BEGIN ISOLATION LEVEL SERIALIZABLE
// ... COMMIT: it behaves as if it ran alone, as every transaction does on SQLite (one writer at a
// time), so code written against SQLite keeps its meaning with several servers on one database.
// The price is that PostgreSQL may abort one of two overlapping transactions (serialization
// failure, 40001) or break a deadlock (40P01); the transaction is then run again from the start,
// up to 20 attempts. That is safe because a transaction callback does nothing but database work
// (db.ts), and nothing of an aborted attempt was committed. Attempts after the first wait their
// turn in a lane of this process, one at a time, so that a burst of transactions on one row (50
// purchases of one account at once) settles instead of failing each other again and again.
//
// Reads outside transactions share a few pipelined connections (postgres-shared.ts), and named
// statements are described once per connection (postgres-statement.ts): docs/decisions/0068.
//
// The pool is anything shaped like node-postgres's `Pool` (PgPool below): `pg` in production,
// an in-process PGlite in the tests (testing/pglite.ts), so both run this same code.
import pg from "pg";
import {
  type Db,
  type Queryable,
  type Row,
  type SqlValue,
  type TransactionOptions,
  UniqueViolation,
} from "./db.ts";
import { isStalePlan, type PgPipelinedClient, SharedConnections } from "./postgres-shared.ts";
import { BatchFailed, describedStatements, type StatementRunner } from "./postgres-statement.ts";

export type PgResult = { rows: Row[]; rowCount: number | null };

/** A statement prepared once per connection under `name` (node-postgres's query config). */
export type PgNamedQuery = { name: string; text: string; values: unknown[] };

export interface PgClient {
  /** With `values` one statement (extended protocol); without, a script (simple protocol). */
  query(text: string, values?: unknown[]): Promise<PgResult>;
  /** A named statement; only called when the pool was opened with `prepare` (node-postgres). */
  query(config: PgNamedQuery): Promise<PgResult>;
  release(error?: Error | boolean): void;
}

export interface PgPool {
  connect(): Promise<PgClient>;
  query(text: string, values?: unknown[]): Promise<PgResult>;
  end(): Promise<void>;
}

/** SQLSTATEs after which a transaction is run again: serialization failure, deadlock. */
const RETRYABLE = new Set(["40001", "40P01"]);
const UNIQUE_VIOLATION = "23505";

export type PostgresOptions = {
  /** Attempts of a transaction that keeps failing to serialize (default 20). */
  maxAttempts?: number;
  /**
   * Prepare each statement once per connection (a named statement) instead of parsing and
   * planning it at every execution: the pool must take node-postgres's query config.
   */
  prepare?: boolean;
  /**
   * How a named statement runs on a client (with `prepare`): node-postgres's query config by
   * default; `openPostgres` describes each statement once per connection (postgres-statement.ts).
   */
  statement?: StatementRunner;
  /**
   * Connections shared by the reads outside transactions (`get`, `all`), pipelined
   * (postgres-shared.ts): `open` makes a client in node-postgres's pipeline mode, at most `count`
   * at once. Without it each read takes a pooled connection.
   */
  shared?: { open: () => PgPipelinedClient; count: number };
};

/** Names of prepared statements: one per distinct SQL text, the same on every connection. */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

const cache = new Map<string, string>();

/**
 * `?` placeholders numbered as PostgreSQL wants them ($1, $2, ...), leaving string literals,
 * quoted identifiers, dollar-quoted strings and comments alone.
 */
export function numberPlaceholders(sql: string): string {
  const known = cache.get(sql);
  if (known !== undefined) return known;
  let out = "";
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === "'" || c === '"') {
      const end = closing(sql, i + 1, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "$" && /[A-Za-z_$]/.test(next ?? "") && !/[\w$]/.test(sql[i - 1] ?? "")) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        out += sql.slice(i, stop);
        i = stop;
      } else {
        out += c;
        i += 1;
      }
    } else if (c === "?") {
      n += 1;
      out += `$${n}`;
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  if (cache.size > 5000) cache.clear();
  cache.set(sql, out);
  return out;
}

/** The index after the quote that closes a literal opened before `from` (doubled quotes escape). */
function closing(sql: string, from: number, quote: string): number {
  let i = from;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return sql.length;
}

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

type Runner = (text: string, values?: unknown[]) => Promise<PgResult>;

/**
 * A statement that only reads. A write through `get` or `all` outside a transaction (an
 * `UPDATE ... RETURNING`) commits alone, and goes to the pool as `runAlone`'s do.
 */
const READ = /^\s*SELECT\b/i;

/** node-postgres's own way: its query config, described at every execution. */
const queryConfig: StatementRunner = (client, query) => (client as PgClient).query(query);

/** Runs statements with values on `client` as named statements (PostgresOptions.prepare). */
function preparedOn(client: PgClient, statement: StatementRunner): Runner {
  return (text, values) =>
    values === undefined
      ? client.query(text)
      : statement(client, { name: statementName(text), text, values });
}

function queryable(run: Runner): Queryable {
  const call = async (sql: string, values: readonly SqlValue[]) => {
    try {
      return await run(numberPlaceholders(sql), params(values));
    } catch (error) {
      throw mapError(error);
    }
  };
  return {
    async get<T>(sql: string, values: readonly SqlValue[] = []) {
      return (await call(sql, values)).rows[0] as T | undefined;
    },
    async all<T>(sql: string, values: readonly SqlValue[] = []) {
      return (await call(sql, values)).rows as T[];
    },
    async run(sql: string, values: readonly SqlValue[] = []) {
      return { changes: (await call(sql, values)).rowCount ?? 0 };
    },
    async exec(sql: string) {
      try {
        await run(sql);
      } catch (error) {
        throw mapError(error);
      }
    },
  };
}

export class PostgresDb implements Db {
  readonly dialect = "postgres";
  readonly pool: PgPool;
  private readonly maxAttempts: number;
  /** Reads outside transactions: on the shared connections when there are (postgres-shared.ts). */
  private readonly direct: Queryable;
  /**
   * `runAlone`'s writes: on a pooled connection each. Their COMMIT waits for the WAL to reach
   * the disk, which would hold up every statement behind it on a shared connection; on the pool,
   * commits that wait together share one flush.
   */
  private readonly alone: Queryable;
  private closed = false;
  /** Transactions run again after a serialization failure or deadlock (for the tests, figures). */
  retries = 0;
  private lane: Promise<void> = Promise.resolve();

  private readonly prepare: boolean;
  private readonly statement: StatementRunner;
  private readonly shared: SharedConnections | null;

  constructor(pool: PgPool, options: PostgresOptions = {}) {
    this.pool = pool;
    this.maxAttempts = options.maxAttempts ?? 20;
    this.prepare = options.prepare ?? false;
    const statement = options.statement ?? queryConfig;
    this.statement = statement;
    const shared =
      options.shared && new SharedConnections(options.shared.open, options.shared.count, statement);
    this.shared = shared ?? null;
    const pooled: Runner = (text, values) =>
      this.prepare ? this.onClient(text, values) : this.pool.query(text, values);
    this.alone = queryable(pooled);
    this.direct = shared
      ? queryable((text, values) =>
          values === undefined || !READ.test(text)
            ? pooled(text, values)
            : shared.query({ name: statementName(text), text, values }),
        )
      : this.alone;
  }

  /** One prepared statement on a pooled client; a stale plan drops the client and runs again. */
  private async onClient(text: string, values?: unknown[]): Promise<PgResult> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      try {
        const result = await preparedOn(client, this.statement)(text, values);
        client.release();
        return result;
      } catch (error) {
        const stale = isStalePlan(error);
        client.release(stale);
        if (!stale || attempt >= 3) throw error;
      }
    }
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
    return this.alone.run(sql, values);
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

  /** One attempt: BEGIN, the work, COMMIT on a pooled client; ROLLBACK when anything fails. */
  private async attempt<T>(begin: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      const value = await work(queryable(this.inTransaction(client, begin)));
      await client.query("COMMIT");
      client.release();
      return value;
    } catch (error) {
      let lost = false;
      try {
        await client.query("ROLLBACK");
      } catch {
        // The connection is gone (a COMMIT cut off may or may not have committed): it leaves
        // the pool, and the error is not retried.
        lost = true;
      }
      // A connection with a stale prepared statement leaves the pool too (isStalePlan).
      client.release(lost || isStalePlan(error));
      if (lost && isRetryable(error))
        throw new Error("The database connection was lost.", { cause: error });
      throw error;
    }
  }

  /**
   * The statements of a transaction on `client`, BEGIN first. With prepared statements whose
   * runner batches (StatementRunner.batch), the statements issued together (in one turn of the
   * microtask queue, as Promise.all issues them) go out in one write and come back in one round
   * trip, BEGIN with the first of them. Nothing runs outside the transaction: a batch has one
   * Sync, and PostgreSQL skips whatever follows a failed statement up to it (decision 0074).
   */
  private inTransaction(client: PgClient, begin: string): Runner {
    const batch = this.prepare ? this.statement.batch : undefined;
    if (!batch) {
      const prepared = this.prepare ? preparedOn(client, this.statement) : null;
      let begun: Promise<unknown> | null = null;
      return async (text, values) => {
        begun ??= client.query(begin);
        await begun;
        return prepared ? prepared(text, values) : client.query(text, values);
      };
    }
    const beginQuery: PgNamedQuery = { name: statementName(begin), text: begin, values: [] };
    /** BEGIN's outcome once it is sent. */
    let begun: Promise<unknown> | null = null;
    /** Statements issued in this turn, not sent yet. */
    let issued: { query: PgNamedQuery; sent: (result: Promise<PgResult>) => void }[] = [];
    /** A script waiting for BEGIN's answer: statements issued after it go out after it. */
    let script: Promise<unknown> | null = null;
    const transmit = (sending: typeof issued) => {
      const queries = sending.map((s) => s.query);
      const first = begun === null;
      const results = batch(client, first ? [beginQuery, ...queries] : queries);
      if (first) {
        begun = results.shift() ?? Promise.resolve();
        // Told through the statements sent with it (BatchFailed), and through those after.
        begun.catch(() => {});
      }
      for (const [i, s] of sending.entries()) s.sent(results[i] as Promise<PgResult>);
    };
    const send = () => {
      const sending = issued;
      issued = [];
      // Sent already (a script issued in the same turn sends what was issued before it).
      if (sending.length === 0) return;
      if (begun === null) return transmit(sending);
      // A later batch goes out once BEGIN succeeded, batches in the order they were issued: one
      // sent while BEGIN's batch is unanswered would run outside the transaction were BEGIN to
      // fail (its Sync is its own).
      begun.then(
        () => transmit(sending),
        (error: Error) => {
          for (const s of sending) s.sent(Promise.reject(new BatchFailed(error)));
        },
      );
    };
    const run: Runner = (text, values) => {
      if (script) return script.then(() => run(text, values));
      if (values === undefined) {
        // A script (the simple protocol, a Sync of its own): after everything issued before it,
        // and only once BEGIN succeeded.
        if (issued.length > 0) send();
        begun ??= client.query(begin);
        const waiting: Promise<PgResult> = begun.then(() => {
          if (script === waiting) script = null;
          return client.query(text);
        });
        script = waiting;
        return waiting;
      }
      return new Promise<PgResult>((sent) => {
        if (issued.length === 0) queueMicrotask(send);
        issued.push({ query: { name: statementName(text), text, values }, sent });
      });
    };
    return run;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.shared?.close();
    await this.pool.end();
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

/** Options of every connection to `connection`'s database, pooled or shared. */
function clientConfig(connection: PostgresConnection): pg.ClientConfig {
  return { connectionString: connection.url, connectionTimeoutMillis: 10_000, types };
}

/** A node-postgres pool that reads BIGINT and NUMERIC as numbers. */
export function createPgPool(connection: PostgresConnection): pg.Pool {
  const pool = new pg.Pool({
    ...clientConfig(connection),
    max: connection.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
  });
  // An idle client whose server went away emits here; without a listener it would stop the
  // process. The next query gets a new connection.
  pool.on("error", () => {});
  return pool;
}

/**
 * Connections shared by the statements outside transactions (postgres-shared.ts), besides the
 * pool's: two, so that the database can work on two statements at once, each on a core.
 */
export const SHARED_CONNECTIONS = 2;

export function openPostgres(connection: PostgresConnection, options?: PostgresOptions) {
  return new PostgresDb(createPgPool(connection) as unknown as PgPool, {
    prepare: true,
    statement: describedStatements(
      types.getTypeParser as (oid: number) => (text: string) => unknown,
    ),
    shared: {
      open: () => new pg.Client({ ...clientConfig(connection), pipeline: true }),
      count: SHARED_CONNECTIONS,
    },
    ...options,
  });
}
