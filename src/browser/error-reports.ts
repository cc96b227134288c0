// Production error reports (spec 7 and 8): POST /api/2/event/trackjs, named 'checkout-prod',
// noise filtered (report-noise.ts), rate limited (quota 5, refilled 1 per 5 s), each under the
// server's 8 KB limit, and a watchdog for lazy chunks that do not load within 120 s. The network
// is reached through an injected `send`, so tests (and the API client) decide how.
import { classifyNoise } from "./report-noise.ts";
import { createTokenBucket } from "./token-bucket.ts";

/** The error report name (spec 7: fixed as 'checkout-prod'). */
export const ERROR_REPORT_NAME = "checkout-prod";
const REPORT_QUOTA = 5;
const REPORT_REFILL_MS = 5_000;
const CHUNK_TIMEOUT_MS = 120_000;
export const CHUNK_LOAD_ERROR = "chunk-load error";
/**
 * The server refuses (413) an event whose stored JSON and name exceed 8 KB; the name is the
 * message cut to 200 characters (up to 800 bytes), so the report itself keeps to 7 KB.
 */
export const MAX_REPORT_BYTES = 7 * 1024;

export type ReportKind = "error" | "unhandledrejection" | "chunk-load" | "manual";

export type ErrorReport = {
  application: typeof ERROR_REPORT_NAME;
  level: "error" | "warning";
  kind: ReportKind;
  message: string;
  /** The error's name ("TypeError"), when it has one. */
  errorName: string | null;
  stack: string | null;
  filename: string | null;
  line: number | null;
  column: number | null;
  /** The page, with secrets (reset codes, e-mail addresses) taken out of its query. */
  url: string;
  timestamp: number;
};

export type ReportContext = {
  kind?: ReportKind;
  filename?: string | null;
  line?: number | null;
  column?: number | null;
};

export type ReportOutcome = "sent" | "filtered" | "rate-limited" | "disabled";

export type Timers = {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
};

export type ErrorReporterOptions = {
  /** Sends one report (the API client's trackJs call). Its failures are ignored. */
  send: (report: ErrorReport) => unknown;
  /** Production error reporting is on by default and switchable by page context (spec 7). */
  enabled?: boolean;
  now?: () => number;
  /** The page's address; location.href by default. */
  pageUrl?: () => string;
  timers?: Timers;
};

/** The parts of `window` that install() uses. */
export type ErrorWindow = {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
};

export type ErrorReporter = {
  report(error: unknown, context?: ReportContext): ReportOutcome;
  /** Reports uncaught errors and unhandled rejections of the window; returns the uninstaller. */
  install(win: ErrorWindow): () => void;
  /**
   * Passes a lazy chunk's import through, reporting a chunk-load error once if it fails or is
   * still pending after `timeoutMs` (120 s): React.lazy(() => reporter.watchChunk(import("./x"))).
   */
  watchChunk<T>(promise: Promise<T>, options?: { timeoutMs?: number; name?: string }): Promise<T>;
};

const SECRET_PARAMS = ["vc", "email", "token", "code", "password"];

/** The page address without the values of secret query parameters. */
export function redactUrl(href: string): string {
  try {
    const url = new URL(href);
    for (const key of SECRET_PARAMS) {
      if (url.searchParams.has(key)) url.searchParams.set(key, "redacted");
    }
    return url.href;
  } catch {
    return "";
  }
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return "";
  // Never leave half of a surrogate pair behind.
  return `${text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, "")}…`;
}

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** The report cut to `maxBytes` of JSON: the stack goes first, then the message, then URLs. */
export function fitReport(report: ErrorReport, maxBytes = MAX_REPORT_BYTES): ErrorReport {
  let fitted: ErrorReport = {
    ...report,
    message: clip(report.message, 1000),
    stack: report.stack === null ? null : clip(report.stack, 5000),
    filename: report.filename === null ? null : clip(report.filename, 1000),
    url: clip(report.url, 1000),
  };
  for (const key of ["stack", "message", "url", "filename"] as const) {
    let excess = jsonBytes(fitted) - maxBytes;
    while (excess > 0 && (fitted[key] ?? "").length > 0) {
      const value = fitted[key] ?? "";
      fitted = { ...fitted, [key]: clip(value, value.length - excess - 1) };
      excess = jsonBytes(fitted) - maxBytes;
    }
  }
  return fitted;
}

function describeError(error: unknown): {
  message: string;
  errorName: string | null;
  stack: string | null;
} {
  if (error instanceof Error) {
    return {
      message: error.message || error.name,
      errorName: error.name,
      stack: error.stack ?? null,
    };
  }
  if (typeof error === "string") return { message: error, errorName: null, stack: null };
  let message: string;
  try {
    message = JSON.stringify(error) ?? String(error);
  } catch {
    message = Object.prototype.toString.call(error);
  }
  return { message, errorName: null, stack: null };
}

const defaultTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? defaultTimers;
  const pageUrl = options.pageUrl ?? (() => globalThis.location?.href ?? "");
  const bucket = createTokenBucket({ capacity: REPORT_QUOTA, refillMs: REPORT_REFILL_MS, now });

  function report(error: unknown, context: ReportContext = {}): ReportOutcome {
    if (options.enabled === false) return "disabled";
    const described = describeError(error);
    const verdict = classifyNoise({ ...described, filename: context.filename });
    if (verdict === "drop") return "filtered";
    if (!bucket.take()) return "rate-limited";
    const full: ErrorReport = {
      application: ERROR_REPORT_NAME,
      level: verdict === "warning" ? "warning" : "error",
      kind: context.kind ?? "manual",
      ...described,
      filename: context.filename || null,
      line: context.line ?? null,
      column: context.column ?? null,
      url: redactUrl(pageUrl()),
      timestamp: now(),
    };
    try {
      // A report that fails to send is not reported again: that could loop.
      Promise.resolve(options.send(fitReport(full))).catch(() => {});
    } catch {
      // Same for a send that throws.
    }
    return "sent";
  }

  function install(win: ErrorWindow): () => void {
    const onError = (event: Event) => {
      const e = event as Partial<ErrorEvent>;
      report(e.error ?? e.message ?? "error", {
        kind: "error",
        filename: e.filename,
        line: e.lineno,
        column: e.colno,
      });
    };
    const onRejection = (event: Event) => {
      report((event as Partial<PromiseRejectionEvent>).reason, { kind: "unhandledrejection" });
    };
    win.addEventListener("error", onError);
    win.addEventListener("unhandledrejection", onRejection);
    return () => {
      win.removeEventListener("error", onError);
      win.removeEventListener("unhandledrejection", onRejection);
    };
  }

  function watchChunk<T>(
    promise: Promise<T>,
    { timeoutMs = CHUNK_TIMEOUT_MS, name = "chunk" }: { timeoutMs?: number; name?: string } = {},
  ): Promise<T> {
    let reported = false;
    const chunkError = (why: string, cause?: unknown) => {
      if (reported) return;
      reported = true;
      const error = new Error(CHUNK_LOAD_ERROR);
      error.stack = `${name}: ${why}${cause instanceof Error && cause.stack ? `\n${cause.stack}` : ""}`;
      report(error, { kind: "chunk-load" });
    };
    const timer = timers.setTimeout(
      () => chunkError(`not loaded after ${timeoutMs / 1000} s`),
      timeoutMs,
    );
    return promise.then(
      (value) => {
        timers.clearTimeout(timer);
        return value;
      },
      (cause: unknown) => {
        timers.clearTimeout(timer);
        chunkError(`failed: ${describeError(cause).message}`, cause);
        throw cause;
      },
    );
  }

  return { report, install, watchChunk };
}
