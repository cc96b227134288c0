// Kysely's PostgresDialect with an introspector of the connection's own schema (decision 0082).
// Kysely's Migrator looks its tables up through the dialect's introspector; PostgreSQL's, Kysely's
// own, reads every column of every schema with functions that fail ("relation does not exist")
// when another schema's table is dropped meanwhile: test runs, each on a schema of its own, then
// fail at random. This one names the tables of the current schema only, from pg_catalog, which
// is all the Migrator asks (it asks for no columns).
import {
  type DatabaseIntrospector,
  type Kysely,
  type Dialect as KyselyDialect,
  PostgresDialect,
  type PostgresPool,
  sql,
} from "kysely";

function schemaIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
  return {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`
        SELECT nspname AS name FROM pg_catalog.pg_namespace`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string; schema: string; kind: string }>`
        SELECT c.relname AS name, n.nspname AS schema, c.relkind AS kind
          FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`.execute(db);
      return rows.map((t) => ({
        name: t.name,
        schema: t.schema,
        isView: t.kind === "v" || t.kind === "m",
        isForeign: t.kind === "f",
        columns: [],
      }));
    },
  };
}

export function postgresDialect(pool: PostgresPool): KyselyDialect {
  const dialect = new PostgresDialect({ pool });
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => schemaIntrospector(db),
  };
}
