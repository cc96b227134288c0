// The database seam. Handlers and services reach storage only through the per-table query modules
// in this folder, and those only through this interface, so a PostgreSQL backend (DATABASE_URL)
// can implement it later without touching handlers. The interface is async for that reason, even
// though the SQLite implementation answers synchronously.
//
// SQL conventions that keep the queries portable to PostgreSQL: `?` placeholders (an adapter
// numbers them), INTEGER 0/1 for booleans, INTEGER milliseconds for times, TEXT for JSON,
// `INSERT ... ON CONFLICT` and `RETURNING` (both dialects have them).

export type SqlValue = string | number | bigint | null | Uint8Array | boolean | undefined;
export type Row = Record<string, unknown>;

export interface Queryable {
  get<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  all<T = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
}

export interface Db extends Queryable {
  /**
   * Runs `work` atomically: all of its statements commit together or none do. The callback must
   * do nothing but database work through `tx` (no network, no timers): transactions may be
   * committed in groups, and a callback that waits on anything else holds up the group.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): void;
}

export const bool = (value: unknown): boolean => value === 1 || value === true || value === 1n;
