// A server in a child process, for the crash and several-servers tests: the fixture catalogue,
// the database of DATA_DIR or DATABASE_URL (with SERVER_SECRET), port 0. Prints "READY <url>" once
// it listens. IDEMPOTENCY_LEASE_MS (tests only) shortens the lease of pending Idempotency-Keys;
// FIXTURE_EXPERIMENT=true prices with the fixture catalogue's price experiment (experimentCatalog).
import { startServer } from "../main.ts";
import { experimentCatalog, fixtureCatalog } from "./fixture-catalog.ts";

const lease = Number(process.env.IDEMPOTENCY_LEASE_MS);
const running = await startServer({
  port: 0,
  host: "127.0.0.1",
  catalog: process.env.FIXTURE_EXPERIMENT === "true" ? experimentCatalog() : fixtureCatalog(),
  passwordCost: 10,
  // RATE_LIMIT_SCALE (tests only): the real limits (1) for the test of limits across servers.
  rateLimitScale: Number(process.env.RATE_LIMIT_SCALE) || 1000,
  quiet: true,
  ...(lease > 0 ? { idempotencyLeaseMs: lease } : {}),
  log: {
    info: () => {},
    warn: () => {},
    error: (m, e) => process.stderr.write(`${m} ${String(e)}\n`),
  },
});
process.stdout.write(`READY ${running.url}\n`);
process.on("SIGTERM", () => {
  running.close().then(() => process.exit(0));
});
