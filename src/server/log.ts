// The server's log, injected so tests can capture it instead of writing to the console.

export type Logger = {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
};

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message, error) =>
    console.error(message, error instanceof Error ? error.stack : (error ?? "")),
};

export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m, e) => lines.push(`error ${m} ${e instanceof Error ? e.stack : String(e ?? "")}`),
  };
}

/**
 * A warning that may come in floods (clients that go away mid-request): at most `max` lines per
 * `windowMs`, each one line, the next line after a quiet spell saying how many were left out.
 */
export function throttledWarning(
  log: Logger,
  clock: { now(): number },
  options: { max: number; windowMs: number } = { max: 10, windowMs: 60_000 },
): (message: string) => void {
  let windowStart = Number.NEGATIVE_INFINITY;
  let written = 0;
  let suppressed = 0;
  return (message) => {
    const now = clock.now();
    if (now - windowStart >= options.windowMs) {
      windowStart = now;
      written = 0;
    }
    if (written >= options.max) {
      suppressed += 1;
      return;
    }
    written += 1;
    const left = suppressed > 0 ? ` (${suppressed} more like it not logged)` : "";
    suppressed = 0;
    log.warn(`${message.replace(/\s*\n\s*/g, " ")}${left}`);
  };
}
