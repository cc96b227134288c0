// The server the browser tests run against (playwright.config.ts's webServer): what `npm start`
// serves (scripts/serve.ts: the built dist/ and the API server), with one difference that exists
// only here (two differences): passwords are hashed with scrypt at cost 10 (N = 1024, as the unit tests' servers
// use) instead of the production cost 15 (N = 32768, about 150 ms per hash on a loaded 2-core
// machine). A full browser run signs up and in a few hundred times, and every one of those hashes
// competed for the CPU with the browser. The hash is still real scrypt, stored and checked the
// same way (a wrong password is still refused); the production cost stays DEFAULT_COST in
// src/server/auth/passwords.ts, and scripts/serve.ts never passes a cost of its own.
// And every per-address rate limit is 100 times the production one: every test's requests come
// from 127.0.0.1 (a forwarded address would make them no local request, issue 18 item 19), and a
// run signs up and in a few hundred times a minute. The limits themselves are proven by the unit
// tests (security.test.ts, several-servers.test.ts); scripts/serve.ts never passes a scale.
//
// Its data folder is new for each run and removed when the server exits: the demo accounts as
// seeded, nothing left from a previous run, and nothing left behind in the temporary folder (it
// was made by playwright.config.ts, whose every load, in the runner and in each worker, left a
// folder: 352 of them after a day's runs).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../src/server/main.ts";
import { createStaticHandler } from "../src/server/static-files.ts";

/** scrypt cost (log2 N) for the browser tests' server only. */
const TEST_PASSWORD_COST = 10;
/** Every rate limit times this, for the browser tests' server only. */
const TEST_RATE_LIMIT_SCALE = 100;

const distDir = fileURLToPath(new URL("../dist/", import.meta.url));
if (!existsSync(distDir)) {
  console.error(`e2e serve: ${distDir} does not exist; run \`npx astro build\` first.`);
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), "checkout-e2e-"));
process.env.DATA_DIR = dataDir;
process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));

// No log or env passed: the server reads process.env (PORT, HOST, DATA_DIR, ...) and handles
// SIGTERM and SIGINT as scripts/serve.ts's does, so Playwright stops it the same way.
await startServer({
  staticHandler: createStaticHandler(distDir),
  passwordCost: TEST_PASSWORD_COST,
  rateLimitScale: TEST_RATE_LIMIT_SCALE,
});
