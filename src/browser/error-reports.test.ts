import { describe, expect, it } from "vitest";
import {
  CHUNK_LOAD_ERROR,
  createErrorReporter,
  type ErrorReport,
  type ErrorReporterOptions,
  type ErrorWindow,
  fitReport,
  MAX_REPORT_BYTES,
  redactUrl,
  type Timers,
} from "./error-reports.ts";

function fakeClock(start = 1_700_000_000_000) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

/** Timers that run only when the test moves time on. */
function fakeTimers(clock: ReturnType<typeof fakeClock>) {
  const pending = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  const timers: Timers = {
    setTimeout: (run, ms) => {
      pending.set(next, { at: clock.now() + ms, run });
      return next++;
    },
    clearTimeout: (id) => void pending.delete(id as number),
  };
  const advance = (ms: number) => {
    clock.advance(ms);
    for (const [id, timer] of pending) {
      if (timer.at <= clock.now()) {
        pending.delete(id);
        timer.run();
      }
    }
  };
  return { timers, advance, pending };
}

function setup(overrides: Partial<ErrorReporterOptions> = {}) {
  const clock = fakeClock();
  const time = fakeTimers(clock);
  const sent: ErrorReport[] = [];
  const reporter = createErrorReporter({
    send: (report) => sent.push(report),
    now: clock.now,
    pageUrl: () => "https://site.example/cart?p=buy#checkout",
    timers: time.timers,
    ...overrides,
  });
  return { reporter, sent, clock, time };
}

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("error reports", () => {
  it("sends an error as a 'checkout-prod' report", () => {
    const { reporter, sent } = setup();
    const error = new TypeError("price is undefined");
    expect(reporter.report(error)).toBe("sent");
    expect(sent).toEqual([
      {
        application: "checkout-prod",
        level: "error",
        kind: "manual",
        message: "price is undefined",
        errorName: "TypeError",
        stack: error.stack,
        filename: null,
        line: null,
        column: null,
        url: "https://site.example/cart?p=buy#checkout",
        timestamp: 1_700_000_000_000,
      },
    ]);
  });

  it("sends nothing when error reporting is switched off", () => {
    const { reporter, sent } = setup({ enabled: false });
    expect(reporter.report(new Error("x"))).toBe("disabled");
    expect(sent).toEqual([]);
  });

  it("sends five at once, then one more per 5 seconds", () => {
    const { reporter, sent, clock } = setup();
    const outcomes = Array.from({ length: 7 }, (_, i) => reporter.report(new Error(`e${i}`)));
    expect(outcomes).toEqual([...Array(5).fill("sent"), "rate-limited", "rate-limited"]);
    clock.advance(4_999);
    expect(reporter.report(new Error("early"))).toBe("rate-limited");
    clock.advance(1);
    expect(reporter.report(new Error("refilled"))).toBe("sent");
    expect(reporter.report(new Error("again"))).toBe("rate-limited");
    clock.advance(60_000);
    expect(Array.from({ length: 6 }, () => reporter.report(new Error("burst")))).toEqual([
      ...Array(5).fill("sent"),
      "rate-limited",
    ]);
    expect(sent).toHaveLength(11);
  });

  it("drops noise without spending the quota, and downgrades foreign scripts to warnings", () => {
    const { reporter, sent } = setup();
    expect(reporter.report("Script error.")).toBe("filtered");
    expect(reporter.report(new Error("ResizeObserver loop limit exceeded"))).toBe("filtered");
    const fromExtension = new Error("boom");
    fromExtension.stack = "Error: boom\n    at chrome-extension://abcdef/content.js:1:2";
    reporter.report(fromExtension);
    reporter.report("x is not defined", { filename: "https://tpc.googlesyndication.com/a.js" });
    expect(sent.map((report) => report.level)).toEqual(["warning", "warning"]);
    expect(Array.from({ length: 4 }, () => reporter.report(new Error("ours")))).toEqual(
      Array(3).fill("sent").concat("rate-limited"),
    );
  });

  it("never sends a report over the server's limit", () => {
    const { reporter, sent } = setup({
      pageUrl: () => `https://site.example/cart?q=${"é".repeat(3000)}`,
    });
    const error = new Error("m".repeat(20_000));
    error.stack = `Error\n${"    at f (https://site.example/_astro/x.js:1:2)\n".repeat(2000)}`;
    reporter.report(error);
    const report = sent[0] as ErrorReport;
    expect(bytes(report)).toBeLessThanOrEqual(MAX_REPORT_BYTES);
    // What the server counts: the stored name (message cut to 200) and the JSON.
    const stored = new TextEncoder().encode(report.message.slice(0, 200)).length + bytes(report);
    expect(stored).toBeLessThanOrEqual(8 * 1024);
    expect(report.message.startsWith("mmmm")).toBe(true);
  });

  it("fits reports of any text, multi-byte and escaped", () => {
    const report: ErrorReport = {
      application: "checkout-prod",
      level: "error",
      kind: "manual",
      message: "\u0001😀".repeat(3000),
      errorName: null,
      stack: "\u2028".repeat(9000),
      filename: "😀".repeat(2000),
      line: 1,
      column: 2,
      url: "https://site.example/",
      timestamp: 0,
    };
    const fitted = fitReport(report);
    expect(bytes(fitted)).toBeLessThanOrEqual(MAX_REPORT_BYTES);
    expect(fitted.message.length).toBeGreaterThan(0);
    expect(fitReport({ ...report, message: "short", stack: null, filename: null })).toEqual({
      ...report,
      message: "short",
      stack: null,
      filename: null,
    });
  });

  it("takes reset codes and e-mail addresses out of the page address", () => {
    expect(redactUrl("https://site.example/cart/new-password?vc=s3cret&email=a%40b.example")).toBe(
      "https://site.example/cart/new-password?vc=redacted&email=redacted",
    );
  });

  it("keeps the checkout running when sending fails", async () => {
    const { reporter } = setup({ send: () => Promise.reject(new Error("429")) });
    expect(reporter.report(new Error("x"))).toBe("sent");
    const throwing = setup({
      send: () => {
        throw new Error("offline");
      },
    });
    expect(throwing.reporter.report(new Error("x"))).toBe("sent");
    await Promise.resolve();
  });
});

describe("window listeners", () => {
  function fakeWindow() {
    const listeners = new Map<string, (event: Event) => void>();
    const win: ErrorWindow = {
      addEventListener: (type, listener) => void listeners.set(type, listener),
      removeEventListener: (type) => void listeners.delete(type),
    };
    const fire = (type: string, event: object) => listeners.get(type)?.(event as Event);
    return { win, fire, listeners };
  }

  it("reports uncaught errors and unhandled rejections until uninstalled", () => {
    const { reporter, sent } = setup();
    const { win, fire, listeners } = fakeWindow();
    const uninstall = reporter.install(win);
    fire("error", {
      error: new RangeError("bad seats"),
      message: "Uncaught RangeError: bad seats",
      filename: "https://site.example/_astro/cart.js",
      lineno: 3,
      colno: 14,
    });
    fire("error", { error: null, message: "Script error.", filename: "" });
    fire("unhandledrejection", { reason: { status: 500 } });
    expect(sent.map((r) => [r.kind, r.message, r.filename, r.line, r.column])).toEqual([
      ["error", "bad seats", "https://site.example/_astro/cart.js", 3, 14],
      ["unhandledrejection", '{"status":500}', null, null, null],
    ]);
    uninstall();
    expect(listeners.size).toBe(0);
  });
});

describe("with a real event target", () => {
  it("hears events dispatched the browser's way", () => {
    const { reporter, sent } = setup();
    const target = new EventTarget();
    reporter.install(target);
    const event = Object.assign(new Event("error"), {
      error: new Error("from the page"),
      filename: "https://site.example/_astro/cart.js",
    });
    target.dispatchEvent(event);
    expect(sent.map((report) => report.message)).toEqual(["from the page"]);
  });
});

describe("chunk-load watchdog", () => {
  it("reports a chunk-load error once when a chunk is not loaded within 120 s", async () => {
    const { reporter, sent, time } = setup();
    let resolve: (value: string) => void = () => {};
    const chunk = reporter.watchChunk(new Promise<string>((r) => (resolve = r)), {
      name: "payment",
    });
    time.advance(119_999);
    expect(sent).toEqual([]);
    time.advance(1);
    expect(sent).toMatchObject([{ kind: "chunk-load", message: CHUNK_LOAD_ERROR }]);
    expect(sent[0]?.stack).toContain("payment: not loaded after 120 s");
    // It may still arrive: the page goes on with it.
    resolve("module");
    await expect(chunk).resolves.toBe("module");
    expect(sent).toHaveLength(1);
  });

  it("reports a chunk that fails and passes the failure on", async () => {
    const { reporter, sent, time } = setup();
    const failure = new TypeError("Failed to fetch dynamically imported module");
    await expect(reporter.watchChunk(Promise.reject(failure))).rejects.toBe(failure);
    expect(sent).toMatchObject([{ kind: "chunk-load", message: CHUNK_LOAD_ERROR }]);
    expect(time.pending.size).toBe(0);
  });

  it("says nothing about a chunk that loads in time", async () => {
    const { reporter, sent, time } = setup();
    await expect(reporter.watchChunk(Promise.resolve(42), { timeoutMs: 120_000 })).resolves.toBe(
      42,
    );
    time.advance(200_000);
    expect(sent).toEqual([]);
  });
});
