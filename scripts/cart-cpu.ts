// The checkout's start-up in CPU time (issue 22, item 12): a DevTools trace of one page load, and
// from it the main thread's work counted in thread CPU time rather than wall time, so the figure
// does not move with the machine's load the way Lighthouse's total blocking time does (on a
// shared machine a task's wall time includes the time other processes had the core). Lighthouse's
// mobile preset simulates a 4x slower CPU on the tasks it observed; "blocking at 4x" does the same
// with each task's CPU time: the part over 50 ms of four times it, summed over the tasks after the
// first contentful paint. Used by scripts/bench-cart.ts beside the floor page.
import type { CDPSession, Page } from "@playwright/test";

/** Lighthouse's mobile preset: a CPU four times slower than the machine's. */
export const CPU_SLOWDOWN = 4;
const LONG_TASK_MS = 50;

export type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: Record<string, unknown>;
};

export type LoadCpu = {
  /** CPU time of every main-thread task from the navigation to the ready state (ms). */
  taskCpuMs: number;
  /** CPU time inside JavaScript (compile, evaluate, run), outermost events only (ms). */
  scriptCpuMs: number;
  /** Tasks whose CPU time at 4x is over 50 ms, after the first contentful paint. */
  longTasks: number;
  /** Sum over those of (4 x CPU time - 50 ms): total blocking time with CPU time. */
  blockingAt4xMs: number;
  /** The longest task's CPU time at 4x (ms). */
  longestTaskAt4xMs: number;
};

const TASK_NAMES = new Set(["RunTask", "ThreadControllerImpl::RunTask"]);
const SCRIPT_NAMES = new Set([
  "EvaluateScript",
  "v8.compile",
  "v8.compileModule",
  "v8.evaluateModule",
  "v8.produceModuleCache",
  "FunctionCall",
  "V8.Execute",
  "v8.run",
]);

/** The page's renderer main thread: the CrRendererMain thread that did the most work. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } | null {
  const renderers = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name")
      .filter((e) => (e.args as { name?: string } | undefined)?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const work = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (TASK_NAMES.has(e.name) && e.ph === "X" && renderers.has(key))
      work.set(key, (work.get(key) ?? 0) + (e.tdur ?? e.dur ?? 0));
  }
  const [best] = [...work.entries()].sort((a, b) => b[1] - a[1]);
  if (!best) return null;
  const [pid, tid] = best[0].split(":").map(Number);
  return { pid: pid ?? 0, tid: tid ?? 0 };
}

/** Outermost complete events of `names`, in time order (nested ones are inside their parent). */
function outermost(events: TraceEvent[], names: Set<string>): TraceEvent[] {
  const sorted = events
    .filter((e) => e.ph === "X" && names.has(e.name))
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const out: TraceEvent[] = [];
  let end = -Infinity;
  for (const e of sorted) {
    if (e.ts < end) continue;
    out.push(e);
    end = e.ts + (e.dur ?? 0);
  }
  return out;
}

/** The figures of one load's trace events (exported for its unit test). */
export function loadCpu(events: TraceEvent[]): LoadCpu {
  const main = mainThread(events);
  if (!main) throw new Error("the trace has no renderer main thread with tasks");
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const cpuMs = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000;
  const tasks = outermost(own, TASK_NAMES);
  const fcp = events.find((e) => e.name === "firstContentfulPaint" && e.pid === main.pid)?.ts;
  const afterPaint = tasks.filter((t) => fcp === undefined || t.ts >= fcp);
  const at4x = afterPaint.map((t) => cpuMs(t) * CPU_SLOWDOWN);
  const long = at4x.filter((ms) => ms > LONG_TASK_MS);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    taskCpuMs: sum(tasks.map(cpuMs)),
    scriptCpuMs: sum(outermost(own, SCRIPT_NAMES).map(cpuMs)),
    longTasks: long.length,
    blockingAt4xMs: sum(long.map((ms) => ms - LONG_TASK_MS)),
    longestTaskAt4xMs: Math.max(0, ...at4x),
  };
}

const CATEGORIES = [
  "-*",
  "toplevel",
  "v8",
  "v8.execute",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "loading",
  "blink.user_timing",
];

async function traceEvents(session: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  session.on("Tracing.dataCollected", ({ value }) =>
    events.push(...(value as unknown as TraceEvent[])),
  );
  const complete = new Promise<void>((done) =>
    session.once("Tracing.tracingComplete", () => done()),
  );
  await session.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: { includedCategories: CATEGORIES, recordMode: "recordAsMuchAsPossible" },
  });
  try {
    await run();
  } finally {
    await session.send("Tracing.end");
    await complete;
  }
  return events;
}

/** Lighthouse's mobile screen (the moto g power it emulates), so layout works on a phone's width. */
const MOBILE_VIEWPORT = { width: 412, height: 823 };

/**
 * Loads `url` in a new tab of the opener's context (its cookies, so signed in) with a trace, at a
 * phone's width, waits for `ready` and for the network to go quiet, and returns the load's CPU
 * figures.
 */
export async function measureLoad(
  opener: Page,
  url: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<LoadCpu> {
  const page = await opener.context().newPage();
  try {
    await page.setViewportSize(MOBILE_VIEWPORT);
    const session = await page.context().newCDPSession(page);
    const events = await traceEvents(session, async () => {
      await page.goto(url, { waitUntil: "networkidle" });
      await ready(page);
    });
    return loadCpu(events);
  } finally {
    await page.close();
  }
}
