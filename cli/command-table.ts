// How each command's module loads: only when the command runs. The bundle build
// (scripts/build-cli.ts) replaces this table in each command's bundle with that command alone.
import type { Command } from "commander";
import type { CommandName } from "./command-names.ts";
import type { Io } from "./core/output.ts";

export type CommandModule = { register(program: Command, io: Io, root: string): void };

export const COMMANDS: Partial<Record<CommandName, () => Promise<CommandModule>>> = {
  validate: () => import("./commands/validate.ts"),
  build: () => import("./commands/build.ts"),
  quote: () => import("./commands/quote.ts"),
  diff: () => import("./commands/diff.ts"),
  publish: () => import("./commands/publish.ts"),
  schedule: () => import("./commands/schedule.ts"),
};
