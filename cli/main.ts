// The `catalog` command: parses arguments, runs one command, prints, sets the exit code. Each
// command lives in commands/<name>.ts and loads what it needs only when it runs, so that a quick
// `catalog validate` does not pay for the JSON Schema emitter or the pricing module.
import { enableCompileCache } from "node:module";

// Before any other import, so that later modules load from Node's on-disk compile cache (bin.js
// switches it on even earlier, before this file itself is compiled).
enableCompileCache();

const { Command } = await import("commander");
const { processIo } = await import("./core/output.ts");
const { reportError } = await import("./core/report-error.ts");
const commands = await Promise.all([
  import("./commands/validate.ts"),
  import("./commands/build.ts"),
  import("./commands/quote.ts"),
  import("./commands/diff.ts"),
]);

const io = processIo();
const root = new URL("..", import.meta.url).pathname;
const program = new Command("catalog")
  .description("validate, build, quote and diff the pricing catalogue (catalog/*.yaml)")
  .showHelpAfterError("(run with --help for usage)");
for (const command of commands) command.register(program, io, root);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const { text, exitCode } = reportError(error, io.errStyle);
  io.err(text);
  process.exitCode = exitCode;
}
