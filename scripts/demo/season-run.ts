// Plays the season: starts the server in this process on the data folder (sandbox payments, the
// settable clock at the season's first day, no demo accounts), then day by day sets the clock
// with POST /dev/clock, whose answer comes once the renewal worker has caught up with every
// period due (handlers/dev-clock.ts), and lets that day's visitors act, a few at a time.
import type { Logger } from "../../src/server/log.ts";
import { startServer } from "../../src/server/main.ts";
import { newVisitor, play, type Visitor } from "./actions.ts";
import { Browser } from "./browser.ts";
import { type Census, takeCensus } from "./census.ts";
import { eachBounded } from "./pool.ts";
import { type Calendar, dayMs } from "./season.ts";
import { actionsOn, type Story } from "./stories.ts";

/**
 * scrypt cost (log2 N) of the season's passwords: the browser tests' server's (e2e/serve.ts).
 * Thousands of sign-ups at the production cost would take most of the run; the passwords guard
 * nothing here (every visitor's is VISITOR_PASSWORD), and a hash keeps its cost when the data
 * folder is later served by `npm start`.
 */
const PASSWORD_COST = 10;
/**
 * Every per-address rate limit times this, as in the browser tests' server: every visitor comes
 * from 127.0.0.1 (a local run's conveniences, the sandbox card form and /dev/clock, are for
 * requests from this machine only), and a busy simulated day signs up more people than one
 * address may in a minute of real time.
 */
const RATE_LIMIT_SCALE = 100;

/** Visitors acting at once: each one's calls in order, theirs beside the others'. */
export const PARALLEL_VISITORS = 4;

export type SeasonOptions = {
  stories: readonly Story[];
  calendar: Calendar;
  dataDir: string;
  log: Logger;
  /** Told after each day (progress). */
  onDay?: (day: number, of: number, renewals: RenewalCount) => void;
  /** Stops the season before its next day (Ctrl-C): the server closes cleanly, the data stays. */
  signal?: AbortSignal;
};

export type RenewalCount = { charged: number; failed: number; lapsed: number; ended: number };

export type SeasonResult = { census: Census; renewals: RenewalCount };

export async function playSeason(options: SeasonOptions): Promise<SeasonResult> {
  const { stories, calendar, dataDir, log } = options;
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    env: {
      DATA_DIR: dataDir,
      PAYMENTS: "sandbox",
      CLOCK: "settable",
      CLOCK_START: new Date(dayMs(calendar, 0)).toISOString(),
      SEED: "false",
    },
    log,
    quiet: true,
    passwordCost: PASSWORD_COST,
    rateLimitScale: RATE_LIMIT_SCALE,
    // Renewals only when the clock moves: never in the middle of a day's visits, whose outcome
    // would then depend on how fast this machine plays them.
    renewals: { intervalMs: 0 },
  });
  const total: RenewalCount = { charged: 0, failed: 0, lapsed: 0, ended: 0 };
  try {
    const clock = new Browser(server.url, "the season's clock");
    const visitors = new Map<number, Visitor>();
    for (let day = 0; day < calendar.days; day++) {
      options.signal?.throwIfAborted();
      const renewals = await setClock(clock, dayMs(calendar, day));
      for (const key of Object.keys(total) as (keyof RenewalCount)[]) total[key] += renewals[key];
      const due = actionsOn(stories, day);
      const today = { nowMs: dayMs(calendar, day), experiments: [calendar.experiment] };
      await eachBounded(due, PARALLEL_VISITORS, async ({ story, actions }) => {
        let visitor = visitors.get(story.number);
        if (!visitor) {
          visitor = newVisitor(server.url, story);
          visitors.set(story.number, visitor);
        }
        for (const action of actions) await play(visitor, action, today);
      });
      options.onDay?.(day, calendar.days, renewals);
    }
    // One more move (of nothing) so the last day's purchases are numbered and settled.
    await setClock(clock, dayMs(calendar, calendar.days - 1) + 60 * 60 * 1000);
    return { census: await takeCensus(server.deps.db), renewals: total };
  } finally {
    await server.close();
  }
}

/**
 * Sets the clock and waits for the renewal worker's answer. An account whose lock was held (a
 * request still finishing) is renewed by one more catch-up, asked for at once (advanceMs 0).
 */
async function setClock(clock: Browser, atMs: number): Promise<RenewalCount> {
  // Day 0: the clock started there (CLOCK_START) and has run on a little since.
  const read = await clock.fetch("/dev/clock");
  const { now } = (await read.json()) as { now: number };
  let answer = await clockCall(
    clock,
    atMs > now ? { set: new Date(atMs).toISOString() } : { advanceMs: 0 },
  );
  const sum: RenewalCount = { charged: 0, failed: 0, lapsed: 0, ended: 0 };
  for (let attempt = 0; ; attempt++) {
    const run = answer.renewals;
    if (!run) throw new Error("POST /dev/clock: the server runs no renewal worker");
    sum.charged += run.charged;
    sum.failed += run.failed;
    sum.lapsed += run.lapsed;
    sum.ended += run.ended;
    if (run.busy === 0) return sum;
    if (attempt >= 20)
      throw new Error(`renewals: ${run.busy} accounts still busy after 20 catch-ups`);
    answer = await clockCall(clock, { advanceMs: 0 });
  }
}

type ClockAnswer = {
  now: number;
  renewals: (RenewalCount & { busy: number }) | null;
};

async function clockCall(clock: Browser, change: object): Promise<ClockAnswer> {
  const answer = await clock.fetch("/dev/clock", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(change),
  });
  if (!answer.ok)
    throw new Error(`POST /dev/clock answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as ClockAnswer;
}
