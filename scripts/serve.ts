// `npm start` after a build: serves dist/ on $PORT (default 4321) and $HOST (default 127.0.0.1).
// When the API server exists (src/server/main.ts exporting startServer), it takes over and mounts
// the static handler; until then only the static site is served.
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createStaticHandler, type StaticHandler, sendNotFound } from "./static-handler.ts";

type StartServer = (options: {
  port: number;
  host: string;
  staticHandler: StaticHandler;
}) => unknown;

const distDir = fileURLToPath(new URL("../dist/", import.meta.url));
const apiEntry = fileURLToPath(new URL("../src/server/main.ts", import.meta.url));
const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? "127.0.0.1";

if (!existsSync(distDir)) {
  console.error(`serve: ${distDir} does not exist; run \`npm run build\` first.`);
  process.exit(1);
}

const staticHandler = createStaticHandler(distDir);

if (existsSync(apiEntry)) {
  const api = (await import(pathToFileURL(apiEntry).href)) as { startServer?: StartServer };
  if (typeof api.startServer !== "function") {
    console.error("serve: src/server/main.ts exists but does not export startServer().");
    process.exit(1);
  }
  await api.startServer({ port, host, staticHandler });
} else {
  const server = createServer((req, res) => {
    if (!staticHandler(req, res)) sendNotFound(distDir, req, res);
  });
  server.listen(port, host, () => {
    console.log(`serve: static site from dist/ at http://${host}:${port}/`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
