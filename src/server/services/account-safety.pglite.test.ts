// account-safety.test.ts again, on PostgreSQL in-process (PGlite) instead of SQLite: the server
// test that leans hardest on the database (account locks, seats counted under concurrency, one
// charge for parallel purchases) proves the PostgreSQL backend on every `npm test`.
import { afterAll, vi } from "vitest";
import { setTestDatabase } from "../testing/harness.ts";

const previous = setTestDatabase("pglite");
afterAll(() => {
  setTestDatabase(previous);
});
// PostgreSQL in WebAssembly answers slower than SQLite: more time on a busy machine.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
// A module of its own (the query makes one), not account-safety.test.ts itself: without isolation
// (vitest.config.ts) a file that account-safety.test.ts's own run already loaded in this worker
// would not run again, and register no test here.
const suite = "./account-safety.test.ts?database=pglite";
await import(/* @vite-ignore */ suite);
