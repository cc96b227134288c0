// SQLite through node:sqlite (docs/decisions/0004-server-sqlite-with-group-commit.md).
//
// One connection, WAL, synchronous=FULL: a transaction is on disk when COMMIT returns. Transactions
// are queued and committed in groups: everything queued during one turn of the event loop runs
// inside one BEGIN IMMEDIATE ... COMMIT, each in its own SAVEPOINT so that one failing transaction
// rolls back alone. A group costs one fsync however many orders it holds, which is what lets
// concurrent payments commit faster than one fsync each. Nothing is acknowledged before its
// group's COMMIT has returned.
import { DatabaseSync, type StatementSync } from "node:sqlite";
import {
  type Db,
  type Queryable,
  type Row,
  type SqlValue,
  type TransactionOptions,
  UniqueViolation,
} from "./db.ts";
import { compileRow } from "./mapper.ts";

type Job = {
  work: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

type Param = string | number | bigint | null | Uint8Array;

function toParam(value: SqlValue): Param {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/**
 * A read statement whose rows come from node:sqlite as arrays, made into objects by a function
 * compiled for its column list. node:sqlite builds an object row through V8's C++ API, one
 * property at a time, which costs more than the query itself for a wide row (the session lookup
 * reads about 70 columns on every signed-in request); an object literal of a fixed shape costs
 * a fraction. The rows are what node:sqlite's own would be: null prototype, and where two columns
 * share a name, the last one's value.
 */
type Read = { statement: StatementSync; row: (values: unknown[]) => Row };

function rowBuilder(statement: StatementSync): (values: unknown[]) => Row {
  return compileRow(statement.columns().map((c) => c.name));
}

const TOTAL_CHANGES_SQL = "SELECT total_changes() AS own";
const DATA_VERSION_SQL = "PRAGMA data_version";

/** SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY. */
const UNIQUE_CODES = new Set([2067, 1555]);

/** The driver's error, or a UniqueViolation for a repeated unique value (see db.ts). */
function mapError(error: unknown): unknown {
  const code = (error as { errcode?: number } | null)?.errcode;
  if (code !== undefined && UNIQUE_CODES.has(code) && error instanceof Error) {
    const columns = /UNIQUE constraint failed: (.+)$/.exec(error.message)?.[1] ?? null;
    return new UniqueViolation(error.message, columns, error);
  }
  return error;
}

export type SqliteOptions = {
  /** Largest number of transactions committed together. */
  maxGroup?: number;
  /**
   * Write-ahead log (the default). Off for a database built under a temporary name and renamed
   * into place (data-folder.ts), so that closing it leaves one file.
   */
  wal?: boolean;
};

export class SqliteDb implements Db {
  readonly dialect = "sqlite";
  readonly raw: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly reads = new Map<string, Read>();
  private readonly queue: Job[] = [];
  private readonly maxGroup: number;
  private busy = false;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** Scripts run through exec (changeMark). */
  private scripts = 0;
  private readonly tx: Queryable;

  constructor(path: string, options: SqliteOptions = {}) {
    this.raw = new DatabaseSync(path);
    if (options.wal !== false) this.raw.exec("PRAGMA journal_mode = WAL");
    this.raw.exec("PRAGMA synchronous = FULL");
    this.raw.exec("PRAGMA busy_timeout = 5000");
    this.raw.exec("PRAGMA foreign_keys = ON");
    this.maxGroup = options.maxGroup ?? 512;
    this.tx = {
      get: async <T>(sql: string, params: readonly SqlValue[] = []) => this.getNow<T>(sql, params),
      all: async <T>(sql: string, params: readonly SqlValue[] = []) => this.allNow<T>(sql, params),
      run: async (sql: string, params: readonly SqlValue[] = []) => this.runNow(sql, params),
      exec: async (sql: string) => this.execNow(sql),
    };
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.raw.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The statement of a read, its rows as arrays (see Read); prepared once per SQL text. */
  private read(sql: string): Read {
    let read = this.reads.get(sql);
    if (!read) {
      const statement = this.raw.prepare(sql);
      statement.setReturnArrays(true);
      read = { statement, row: rowBuilder(statement) };
      this.reads.set(sql, read);
    }
    return read;
  }

  private getNow<T>(sql: string, params: readonly SqlValue[]): T | undefined {
    try {
      const { statement, row } = this.read(sql);
      const values = statement.get(...params.map(toParam)) as unknown[] | undefined;
      return (values && row(values)) as T | undefined;
    } catch (error) {
      throw mapError(error);
    }
  }

  private allNow<T>(sql: string, params: readonly SqlValue[]): T[] {
    try {
      const { statement, row } = this.read(sql);
      return (statement.all(...params.map(toParam)) as unknown as unknown[][]).map(row) as T[];
    } catch (error) {
      throw mapError(error);
    }
  }

  private runNow(sql: string, params: readonly SqlValue[]): { changes: number } {
    try {
      const result = this.statement(sql).run(...params.map(toParam));
      return { changes: Number(result.changes) };
    } catch (error) {
      throw mapError(error);
    }
  }

  private execNow(sql: string): void {
    // A script may change tables (migrations): a read's column list, and so its row builder,
    // is worked out again at its next use.
    this.reads.clear();
    this.scripts += 1;
    try {
      this.raw.exec(sql);
    } catch (error) {
      throw mapError(error);
    }
  }

  /** Reads outside a transaction never see a group that is not committed yet. */
  private idle(): Promise<void> {
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Db.changeMark, once no group is running: this connection's row changes (total_changes():
   * every row written through it, committed or rolled back, through this class or `raw`), the
   * file's data_version (it moves when another connection commits, tables created or altered
   * included) and the scripts run through this class (migrations: DDL changes no row count).
   * Equal marks mean a read outside a transaction would answer as it did. A table altered
   * through `raw` is not seen: nothing does that once the server answers.
   */
  async changeMark(): Promise<string> {
    if (this.busy) await this.idle();
    const own = this.getNow<Row>(TOTAL_CHANGES_SQL, [])?.own;
    const others = this.getNow<Row>(DATA_VERSION_SQL, [])?.data_version;
    return `${own}:${others}:${this.scripts}`;
  }

  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    if (this.busy) await this.idle();
    return this.getNow<T>(sql, params);
  }

  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    if (this.busy) await this.idle();
    return this.allNow<T>(sql, params);
  }

  /** A write outside an explicit transaction is a transaction of its own. */
  run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return this.transaction((tx) => tx.run(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.transaction((tx) => tx.exec(sql));
  }

  /** One writer at a time: a statement alone is a transaction of the next group. */
  runAlone(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return this.run(sql, params);
  }

  /** One writer at a time: every transaction is serializable, whatever `options` ask. */
  transaction<T>(work: (tx: Queryable) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    if (this.closed) return Promise.reject(new Error("The database is closed."));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.busy || this.queue.length === 0) return;
    this.scheduled = true;
    // setImmediate, not a microtask: the group then holds every transaction that requests
    // arriving in this turn of the event loop asked for.
    setImmediate(() => {
      this.scheduled = false;
      void this.commitGroup();
    });
  }

  private async commitGroup(): Promise<void> {
    if (this.busy || this.queue.length === 0) return;
    this.busy = true;
    const group = this.queue.splice(0, this.maxGroup);
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.raw.exec("BEGIN IMMEDIATE");
      try {
        for (const job of group) {
          this.raw.exec("SAVEPOINT job");
          try {
            const value = await job.work(this.tx);
            this.raw.exec("RELEASE job");
            outcomes.push({ ok: true, value });
          } catch (error) {
            this.raw.exec("ROLLBACK TO job");
            this.raw.exec("RELEASE job");
            outcomes.push({ ok: false, error });
          }
        }
        this.raw.exec("COMMIT");
      } catch (error) {
        if (this.raw.isTransaction) this.raw.exec("ROLLBACK");
        throw error;
      }
      group.forEach((job, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok) job.resolve(outcome.value);
        else job.reject(outcome?.error);
      });
    } catch (error) {
      for (const job of group) job.reject(error);
    } finally {
      this.busy = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
      this.schedule();
    }
  }

  private markedOpen = false;

  /**
   * Marks the database file as open (user_version 1) and checkpoints, so the file itself says
   * that its write-ahead log holds its latest transactions until close() clears the mark:
   * start-up then refuses the file without its log (a kill -9's folder copied without the -wal,
   * a backup that copied the file alone) instead of starting on it with those transactions
   * silently gone (data-folder.ts, inspect.ts).
   */
  markOpen(): void {
    this.raw.exec("PRAGMA user_version = 1");
    this.raw.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    this.markedOpen = true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error("The database is closed."));
    if (this.markedOpen && !this.raw.isTransaction) {
      try {
        // Closing checkpoints the log into the file and deletes it: the file is whole again.
        this.raw.exec("PRAGMA user_version = 0");
      } catch {
        // The mark stays: the next start finds the log beside the file and reads it.
      }
    }
    this.raw.close();
  }
}
