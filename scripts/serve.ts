// `npm start` after a build: the API server (src/server/main.ts) with the built site (dist/) on
// $PORT (default 4321) and $HOST (default 127.0.0.1), one port for both.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer } from "../src/server/main.ts";
import { createStaticHandler } from "../src/server/static-files.ts";

const distDir = fileURLToPath(new URL("../dist/", import.meta.url));
const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? "127.0.0.1";

if (!existsSync(distDir)) {
  console.error(`serve: ${distDir} does not exist; run \`npm run build\` first.`);
  process.exit(1);
}

await startServer({ port, host, staticHandler: createStaticHandler(distDir) });
