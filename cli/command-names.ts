// The commands of `catalog` by name, and which one a command line names: shared by main.ts and
// the bundle's loader (load-bundle.ts), which must know the name without loading any command.

export const COMMAND_NAMES = ["validate", "build", "quote", "diff", "publish", "schedule"] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

/** The command named on the command line: its first word that is not an option, if a command. */
export function namedCommand(argv: readonly string[]): CommandName | undefined {
  const named = argv.slice(2).find((arg) => !arg.startsWith("-"));
  return COMMAND_NAMES.find((name) => name === named);
}
