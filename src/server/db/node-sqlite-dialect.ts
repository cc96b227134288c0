// node:sqlite behind Kysely's SqliteDialect (decision 0082). Kysely documents the `SqliteDatabase`
// shape its dialect drives (better-sqlite3's); this is that shape over node:sqlite's public
// DatabaseSync and StatementSync. Statements are prepared once per SQL text and kept.
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import {
  type DialectAdapter,
  type Driver,
  type Dialect as KyselyDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
} from "kysely";
import { UniqueViolation } from "./db.ts";

/** What node:sqlite takes: a boolean is 0/1 (the columns are integers), undefined is NULL. */
function toParam(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  return value as SQLInputValue;
}

/** SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY. */
const UNIQUE_CODES = new Set([2067, 1555]);

/** The driver's error, or a UniqueViolation for a repeated unique value (see db.ts). */
export function mapSqliteError(error: unknown): unknown {
  const code = (error as { errcode?: number } | null)?.errcode;
  if (code !== undefined && UNIQUE_CODES.has(code) && error instanceof Error) {
    const columns = /UNIQUE constraint failed: (.+)$/.exec(error.message)?.[1] ?? null;
    return new UniqueViolation(error.message, columns, error);
  }
  return error;
}

function mapped<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw mapSqliteError(error);
  }
}

/**
 * Rows as objects made here from node:sqlite's arrays: node:sqlite builds an object row through
 * V8's C++ API one property at a time, which costs more than the query itself for a wide row
 * (the session lookup reads about 75 columns on every signed-in request); the same objects made
 * in JavaScript, always in the same order, cost a fraction. Where two columns share a name, the
 * last one's value, and no prototype, as node:sqlite's own rows have it.
 */
function objects(names: readonly string[], rows: unknown[][]): Record<string, unknown>[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = Object.create(null);
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row;
  });
}

function statementOf(statement: StatementSync): SqliteStatement {
  const params = (values: ReadonlyArray<unknown>) => values.map(toParam);
  const names = statement.columns().map((c) => c.name);
  if (names.length > 0) statement.setReturnArrays(true);
  return {
    // A statement that answers columns answers rows (a SELECT, or a write with RETURNING).
    reader: names.length > 0,
    all: (values) =>
      mapped(() => objects(names, statement.all(...params(values)) as unknown as unknown[][])),
    run: (values) => mapped(() => statement.run(...params(values))),
    iterate: function* (values) {
      for (const row of statement.iterate(...params(values))) {
        yield objects(names, [row as unknown as unknown[]])[0];
      }
    },
  };
}

/** Kysely's SqliteDatabase over one node:sqlite connection. */
export function sqliteDatabase(raw: DatabaseSync): SqliteDatabase & { forget(): void } {
  const prepared = new Map<string, SqliteStatement>();
  return {
    prepare(sql) {
      let statement = prepared.get(sql);
      if (!statement) {
        statement = statementOf(mapped(() => raw.prepare(sql)));
        prepared.set(sql, statement);
      }
      return statement;
    },
    /** After a script changed tables: a statement's columns are worked out again. */
    forget: () => prepared.clear(),
    close: () => raw.close(),
  };
}

/**
 * Kysely's SqliteDialect, with two differences. DDL runs inside transactions: SQLite has
 * transactional DDL; Kysely's adapter says it has not, and its Migrator would then apply a
 * migration statement by statement, a crash leaving half of one applied. And with `turn`, each
 * statement first waits for it (SqliteDb: until no group commit is running).
 */
export function nodeSqliteDialect(
  database: SqliteDatabase,
  turn?: () => Promise<void>,
): KyselyDialect {
  const dialect = new SqliteDialect({ database });
  return {
    createAdapter: (): DialectAdapter =>
      Object.create(dialect.createAdapter(), { supportsTransactionalDdl: { value: true } }),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      if (!turn) return driver;
      return {
        init: (options) => driver.init(options),
        acquireConnection: async (options) => {
          await turn();
          return driver.acquireConnection(options);
        },
        beginTransaction: (c, settings) => driver.beginTransaction(c, settings),
        commitTransaction: (c) => driver.commitTransaction(c),
        rollbackTransaction: (c) => driver.rollbackTransaction(c),
        releaseConnection: (c, options) => driver.releaseConnection(c, options),
        destroy: (options) => driver.destroy(options),
      };
    },
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
