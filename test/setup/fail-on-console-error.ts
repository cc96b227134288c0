// An unexpected console.error fails the test that caused it (STYLE.md point 13): React warnings,
// act() warnings and swallowed errors all surface as console.error, and should not pass quietly.
//
// A test that expects an error message says so:
//   import { allowConsoleError } from "../../test/setup/fail-on-console-error.ts";
//   allowConsoleError(/network failed/);
import { afterEach, beforeEach, vi } from "vitest";

type Allowed = string | RegExp;
type State = { allowed: Allowed[]; calls: unknown[][] };

// Kept on globalThis so that the state is shared even if a test file loads this module again.
const key = Symbol.for("fail-on-console-error");
const scope = globalThis as typeof globalThis & { [key]?: State };
scope[key] ??= { allowed: [], calls: [] };
const state = scope[key];

/** Lets the current test log console.error messages that match (all of them if no pattern). */
export function allowConsoleError(pattern: Allowed = /[\s\S]*/): void {
  state.allowed.push(pattern);
}

function describeCall(args: unknown[]): string {
  return args
    .map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg)))
    .join(" ");
}

function isAllowed(message: string): boolean {
  return state.allowed.some((pattern) =>
    typeof pattern === "string" ? message.includes(pattern) : pattern.test(message),
  );
}

beforeEach(() => {
  state.allowed = [];
  state.calls = [];
  const original = console.error.bind(console);
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    state.calls.push(args);
    original(...args);
  });
});

afterEach(() => {
  const unexpected = state.calls.map(describeCall).filter((message) => !isAllowed(message));
  state.calls = [];
  state.allowed = [];
  if (unexpected.length > 0) {
    throw new Error(
      `console.error was called ${unexpected.length} time(s) during this test:\n` +
        `${unexpected.map((message) => `  - ${message}`).join("\n")}\n` +
        "Fix the cause, or call allowConsoleError(pattern) in the test if it is expected.",
    );
  }
});
