// A server in a child process, for the crash test: the fixture catalogue, the data folder of
// DATA_DIR, port 0. Prints "READY <url>" once it listens.
import { startServer } from "../main.ts";
import { fixtureCatalog } from "./fixture-catalog.ts";

const running = await startServer({
  port: 0,
  host: "127.0.0.1",
  catalog: fixtureCatalog(),
  passwordCost: 10,
  rateLimitScale: 1000,
  quiet: true,
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
