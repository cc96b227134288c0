// account-safety.test.ts again, on PostgreSQL in-process (PGlite) instead of SQLite: the server
// test that leans hardest on the database (account locks, seats counted under concurrency, one
// charge for parallel purchases) proves the PostgreSQL backend on every `npm test`.
import { vi } from "vitest";
import { setTestDatabase } from "./testing/harness.ts";

setTestDatabase("pglite");
// PostgreSQL in WebAssembly answers slower than SQLite: more time on a busy machine.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
await import("./account-safety.test.ts");
