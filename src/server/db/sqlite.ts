// SQLite through node:sqlite (docs/decisions/0004-server-sqlite-with-group-commit.md).
//
// One connection, WAL, synchronous=FULL: a transaction is on disk when COMMIT returns. Transactions
// are queued and committed in groups: everything queued during one turn of the event loop runs
// inside one BEGIN IMMEDIATE ... COMMIT, each in its own SAVEPOINT so that one failing transaction
// rolls back alone. A group costs one fsync however many orders it holds, which is what lets
// concurrent payments commit faster than one fsync each. Nothing is acknowledged before its
// group's COMMIT has returned. The statements run through Kysely (decision 0082); a group's
// BEGIN, SAVEPOINTs and COMMIT are node:sqlite's own, as Kysely's transactions know no groups.
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { CompiledQuery, Kysely, type QueryResult } from "kysely";
import type { Db, Queryable, Row, SqlValue, TransactionOptions } from "./db.ts";
import { mapSqliteError, nodeSqliteDialect, sqliteDatabase } from "./node-sqlite-dialect.ts";
import type { Database } from "./schema.ts";

type Job = {
  work: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

const TOTAL_CHANGES_SQL = "SELECT total_changes() AS own";
const DATA_VERSION_SQL = "PRAGMA data_version";

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
  /**
   * Every statement runs through Kysely on the one connection (node-sqlite-dialect.ts). Kysely's
   * SQLite driver does not order its callers, so this class does: a group holds the connection
   * from BEGIN IMMEDIATE to COMMIT, and statements outside it wait until it is done. `kysely`
   * waits (a read or a write that commits alone); `inGroup`, a group's transactions' own, does not.
   */
  readonly kysely: Kysely<Database>;
  private readonly inGroup: Kysely<Database>;
  private readonly database: ReturnType<typeof sqliteDatabase>;
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
    this.database = sqliteDatabase(this.raw);
    this.inGroup = new Kysely<Database>({ dialect: nodeSqliteDialect(this.database) });
    this.kysely = new Kysely<Database>({
      dialect: nodeSqliteDialect(this.database, async () => {
        while (this.busy) await this.idle();
      }),
    });
    this.tx = {
      kysely: this.inGroup,
      get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
        (await this.execute(sql, params)).rows[0] as T | undefined,
      all: async <T>(sql: string, params: readonly SqlValue[] = []) =>
        (await this.execute(sql, params)).rows as T[],
      run: async (sql: string, params: readonly SqlValue[] = []) => ({
        changes: Number((await this.execute(sql, params)).numAffectedRows ?? 0),
      }),
      exec: async (sql: string) => this.execNow(sql),
    };
  }

  private execute(sql: string, params: readonly SqlValue[]): Promise<QueryResult<Row>> {
    return this.inGroup.executeQuery<Row>(CompiledQuery.raw(sql, [...params]));
  }

  /**
   * A script of statements (node:sqlite's exec: Kysely runs one statement at a time). It may
   * change tables (migrations): prepared statements are prepared again at their next use.
   */
  private execNow(sql: string): void {
    this.database.forget();
    this.scripts += 1;
    try {
      this.raw.exec(sql);
    } catch (error) {
      throw mapSqliteError(error);
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
    this.marks ??= {
      own: this.raw.prepare(TOTAL_CHANGES_SQL),
      others: this.raw.prepare(DATA_VERSION_SQL),
    };
    const own = this.marks.own.get()?.own;
    const others = this.marks.others.get()?.data_version;
    return `${own}:${others}:${this.scripts}`;
  }

  /**
   * changeMark's two reads, prepared once on the connection and run by node:sqlite itself: they
   * read the connection's counters, no table, and every signed-in request asks for them, where
   * a statement through Kysely costs several times its own work (its connection turn, its
   * compiled query, the row object): about 7 % of an order summary's server CPU (decision 0086).
   */
  private marks: { own: StatementSync; others: StatementSync } | undefined;

  async get<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    if (this.busy) await this.idle();
    return this.tx.get<T>(sql, params);
  }

  async all<T = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    if (this.busy) await this.idle();
    return this.tx.all<T>(sql, params);
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

  /**
   * Runs `work` with the connection to itself, once no group is running and none starts before
   * it ends: Kysely's Migrator, which opens its own transaction on the connection.
   */
  async exclusive<T>(work: (kysely: Kysely<Database>) => Promise<T>): Promise<T> {
    while (this.busy) await this.idle();
    this.busy = true;
    try {
      return await work(this.inGroup);
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
