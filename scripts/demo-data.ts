// `npm run demo-data`: a simulated season played through the API on the settable clock, so that
// `catalog report` has something real to show on a fresh machine (issue 36, item 5; the story
// and its rates: scripts/demo/README.md and docs/decisions/0092-demo-season.md).
//
//   npm run demo-data -- [--seed N] [--visitors N] [--data-dir DIR] [--fresh]
//
// Needs the generated catalogue (`npm run catalog:build`); no build of the site.
import { relative } from "node:path";
import { loadCatalog } from "../src/server/catalog.ts";
import { consoleLogger, type Logger } from "../src/server/log.ts";
import { StartupError } from "../src/server/startup-error.ts";
import { VISITOR_PASSWORD } from "./demo/actions.ts";
import { describeCensus } from "./demo/describe.ts";
import { parseDemoArgs, prepareDataDir, USAGE } from "./demo/options.ts";
import { seasonCalendar } from "./demo/season.ts";
import { playSeason } from "./demo/season-run.ts";
import { tellStories } from "./demo/stories.ts";

function stop(message: string, code = 1): never {
  console.error(`demo-data: ${message}`);
  process.exit(code);
}

const parsed = parseDemoArgs(process.argv.slice(2), process.cwd());
if (!parsed.ok) stop(`${parsed.message}\n${USAGE}`, 2);
const { seed, visitors, dataDir, fresh } = parsed.options;

const calendar = seasonCalendar(loadCatalog());
if (typeof calendar === "string") stop(calendar);
const refusal = prepareDataDir(dataDir, fresh);
if (refusal) stop(refusal);

// The server's own lines: warnings and errors shown as they come, the rest kept quiet.
const serverLog: Logger = { info: () => {}, warn: consoleLogger.warn, error: consoleLogger.error };
const from = new Date(calendar.startMs).toISOString().slice(0, 10);
console.log(
  `demo-data: seed ${seed}, ${visitors} visitors, ${calendar.days} days from ${from}, into ${dataDir}`,
);
// Ctrl-C ends the season after the day being played, so the server closes its database cleanly.
const stopping = new AbortController();
process.once("SIGINT", () => stopping.abort());
const started = performance.now();
let lastPrinted = 0;
let daysPlayed = 0;
try {
  const result = await playSeason({
    stories: tellStories(seed, visitors, calendar),
    calendar,
    dataDir,
    log: serverLog,
    signal: stopping.signal,
    onDay(day, of) {
      daysPlayed = day + 1;
      const now = performance.now();
      if (now - lastPrinted < 5000 && day !== of - 1) return;
      lastPrinted = now;
      const date = new Date(calendar.startMs + day * 86_400_000).toISOString().slice(0, 10);
      console.log(`demo-data: day ${day + 1} of ${of} (${date})`);
    },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const shown = relative(process.cwd(), dataDir) || ".";
  const dir = shown.startsWith("..") ? dataDir : `./${shown}`;
  // The report reads DATABASE_URL before DATA_DIR: an exported one is emptied for the command.
  const env = `${process.env.DATABASE_URL ? "DATABASE_URL= " : ""}DATA_DIR=${dir}`;
  const end = new Date(calendar.startMs + calendar.days * 86_400_000).toISOString();
  // The report's default window is the 12 months up to the machine's date: the season's is named.
  const window = `--from ${from} --to ${end.slice(0, 10)}`;
  console.log(
    [
      `demo-data: played in ${seconds} s.`,
      ...describeCensus(result.census, result.renewals),
      "",
      `The season's database is in ${dataDir}. To read it:`,
      `  ${env} npx catalog report ${window}`,
      `  ${env} npx catalog report ${window} --format html --out demo-report.html`,
      `To sign in as a visitor who signed up (visitor-${seed}-N@demo.example, password "${VISITOR_PASSWORD}"),`,
      "serve it on a clock just after the season, without the demo accounts:",
      `  ${env} SEED=false CLOCK=settable CLOCK_START=${end} npm start`,
    ].join("\n"),
  );
} catch (error) {
  if (error instanceof StartupError) stop(error.message);
  if (stopping.signal.aborted) {
    stop(
      `stopped after ${daysPlayed} of ${calendar.days} days: ${dataDir} holds the season so far; add --fresh to play it again`,
      130,
    );
  }
  throw error;
}
