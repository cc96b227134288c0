// node-postgres' prepared statements under Kysely (decision 0082): each statement with parameters
// is sent as a named query config (node-postgres' documented way to prepare a statement once per
// connection), so PostgreSQL parses and plans it once per connection instead of at every
// execution; without that the database spent three times the CPU per order. Statements without
// parameters (BEGIN, COMMIT, scripts) go as they are.
//
// A prepared `SELECT *` whose table another server's migration has changed fails with "cached
// plan must not change result type": outside a transaction the statement runs again unprepared;
// inside one the transaction fails and is retried (postgres.ts isRetryable). Either way the
// connection leaves the pool when it is released, and its statements with it.
import type { PostgresPool, PostgresPoolClient } from "kysely";
import type pg from "pg";

/** Names of prepared statements: one per distinct SQL text, the same on every connection. */
const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `q${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

export function isStalePlan(error: unknown): boolean {
  return (
    (error as { code?: unknown } | null)?.code === "0A000" &&
    /cached plan must not change result type/.test((error as Error).message ?? "")
  );
}

const TRANSACTION_STARTS = /^\s*(BEGIN|START)\b/i;
const TRANSACTION_ENDS = /^\s*(COMMIT|ROLLBACK|END)\b/i;

function prepared(client: pg.PoolClient): PostgresPoolClient {
  let inTransaction = false;
  let stale = false;
  const query = async (text: string, values: ReadonlyArray<unknown>) => {
    if (values.length === 0) {
      if (TRANSACTION_STARTS.test(text)) inTransaction = true;
      else if (TRANSACTION_ENDS.test(text)) inTransaction = false;
      return client.query(text);
    }
    try {
      return await client.query({ name: nameOf(text), text, values: [...values] });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      stale = true;
      if (inTransaction) throw error;
      return client.query(text, [...values]);
    }
  };
  return {
    query: query as unknown as PostgresPoolClient["query"],
    release: (destroy) => client.release(destroy || stale),
  };
}

/** `pool` with its statements prepared once per connection. */
export function preparedPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    options: pool.options,
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = prepared(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
