// The database seam. Handlers and services reach storage only through the per-table query modules
// in this folder, and those only through this interface, so the same queries run on SQLite
// (node:sqlite, the embedded default: sqlite.ts) and on PostgreSQL (DATABASE_URL: postgres.ts)
// without touching handlers (docs/decisions/0004 and 0014). Both run every statement through
// Kysely (decision 0082): `kysely` is its typed query builder over the tables of schema.ts, on the
// same connection (and transaction) as the other methods; the SQL-text methods stay for the
// queries not yet written with the builder. The interface is async, even though the SQLite
// implementation answers synchronously.
//
// SQL conventions that keep the queries portable: `?` placeholders (the PostgreSQL adapter
// numbers them), INTEGER 0/1 for booleans, INTEGER milliseconds for times (BIGINT on
// PostgreSQL), TEXT for JSON, `INSERT ... ON CONFLICT` and `RETURNING` (both dialects have them),
// lower-case column names and aliases. Both backends return integers (COUNT(*) included) as
// JavaScript numbers; booleans computed by PostgreSQL come back as true/false, so read flags
// with `bool()`. A unique or primary-key violation is thrown as `UniqueViolation` by both.

import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

export type SqlValue = string | number | bigint | null | Uint8Array | boolean | undefined;
export type Row = Record<string, unknown>;

export type Dialect = "sqlite" | "postgres";

export interface Queryable {
  /**
   * The typed query builder on this connection: inside a transaction, on that transaction; on the
   * Db itself, one statement outside transactions (a read of committed data, or a write that
   * commits alone, as `runAlone`'s do).
   */
  readonly kysely: Kysely<Database>;
  get<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  all<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /** Runs a script of statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type TransactionOptions = {
  /**
   * SQLite runs one writer at a time, so every transaction is serializable there. On PostgreSQL
   * transactions are SERIALIZABLE by default, and retried when the database reports a
   * serialization failure or a deadlock; "read committed" is for work that serialises itself
   * with a lock it takes first (migrations), as a serializable snapshot would predate the lock,
   * and for work whose every statement is atomic on its own and reads nothing it then writes
   * from (a one-off order: services/orders.ts commitIsolation; docs/decisions/0034).
   */
  isolation?: "serializable" | "read committed";
};

export interface Db extends Queryable {
  readonly dialect: Dialect;
  /**
   * Runs `work` atomically: all of its statements commit together or none do. The callback must
   * do nothing but database work through `tx` (no network, no timers, no changes outside the
   * database it could not repeat): transactions may be committed in groups (SQLite), and retried
   * from the start after a serialization failure (PostgreSQL).
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * One write that commits on its own, outside any transaction: on PostgreSQL a single round trip
   * at the server's default isolation (read committed), never retried; on SQLite it joins the
   * next group commit. The statement must be atomic by itself and depend on nothing read before
   * it (an `INSERT ... ON CONFLICT`, an `UPDATE ... WHERE` that checks what it relies on), so
   * that no serializable transaction is needed around it (docs/decisions/0034).
   */
  runAlone(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /**
   * A mark that differs whenever a read outside a transaction may answer differently than when
   * the mark was taken: after any change this process made through any path, and after any
   * commit by another process. Taken once the database is idle, as such reads are. Only where
   * that is cheap to know (SQLite, one file); absent where other servers commit without telling
   * this one (PostgreSQL), and then nothing read may be kept between requests.
   */
  changeMark?(): Promise<string>;
  close(): void | Promise<void>;
}

export const bool = (value: unknown): boolean => value === 1 || value === true || value === 1n;

/**
 * A row would repeat a value of a UNIQUE column or a primary key. Both backends throw this (the
 * driver's error is its `cause`), so callers never match a dialect's error text.
 */
export class UniqueViolation extends Error {
  /** The constraint (PostgreSQL) or the columns (SQLite: "users.email"), when known. */
  readonly constraint: string | null;
  constructor(message: string, constraint: string | null, cause: unknown) {
    super(message, { cause });
    this.name = "UniqueViolation";
    this.constraint = constraint;
  }
}

export const isUniqueViolation = (error: unknown): error is UniqueViolation =>
  error instanceof UniqueViolation;
