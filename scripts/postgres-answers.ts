// Exits 0 when the PostgreSQL server of the URL given (or DATABASE_URL) accepts a connection and
// answers a query within 3 seconds, else 1 with the reason on stderr. `.ci/run` uses it to decide
// whether the tests run against a real PostgreSQL server as well.
import pg from "pg";

const url = process.argv[2] ?? process.env.DATABASE_URL;
if (!url) {
  process.stderr.write("postgres-answers: no URL given and DATABASE_URL is not set\n");
  process.exit(1);
}
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
client.on("error", () => {});
try {
  await client.connect();
  await client.query("SELECT 1");
  await client.end();
} catch (error) {
  process.stderr.write(
    `postgres-answers: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
