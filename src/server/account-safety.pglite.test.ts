// account-safety.test.ts again, on PostgreSQL in-process (PGlite) instead of SQLite: the server
// test that leans hardest on the database (account locks, seats counted under concurrency, one
// charge for parallel purchases) proves the PostgreSQL backend on every `npm test`.
import { setTestDatabase } from "./testing/harness.ts";

setTestDatabase("pglite");
await import("./account-safety.test.ts");
