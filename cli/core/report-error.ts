// What the entry file does with an error that escaped a command: an ExitError is a message for
// the user and an exit code; anything else is a bug, printed with its stack for the report.
import { ExitError } from "./exit-error.ts";
import type { Style } from "./output.ts";

/** Exit code of an unexpected error: a bug, not bad data (sysexits EX_SOFTWARE). */
export const BUG_EXIT_CODE = 70;

export function reportError(error: unknown, style: Style): { text: string; exitCode: number } {
  if (error instanceof ExitError)
    return { text: style.red(error.message), exitCode: error.exitCode };
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {
    text: `${style.red("this is a bug; please report it")}\n${detail}`,
    exitCode: BUG_EXIT_CODE,
  };
}
