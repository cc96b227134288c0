// The `catalog` command: parses arguments, runs one command, prints, sets the exit code. Each
// command lives in commands/<name>.ts and loads what it needs only when it runs, so that a quick
// `catalog validate` does not pay for the JSON Schema emitter or the pricing module. Runs as
// TypeScript (`node cli/main.ts`) or bundled (cli/dist/catalog-<command>.cjs, run by
// cli/dist/catalog.cjs; scripts/build-cli.ts, decision 0017).
import { enableCompileCache } from "node:module";

// Before any other import, so that later modules load from Node's on-disk compile cache (bin.cjs
// switches it on even earlier, before this file itself is compiled).
enableCompileCache();

async function main(): Promise<void> {
  const [{ COMMANDS }, { namedCommand }] = await Promise.all([
    import("./command-table.ts"),
    import("./command-names.ts"),
  ]);
  // Only the command named on the command line is loaded (its options must be declared before
  // parsing); help, a typo or no command at all loads every command, so help lists them all.
  const named = namedCommand(process.argv);
  const loaders = Object.values(named !== undefined ? { [named]: COMMANDS[named] } : COMMANDS);

  const [{ Command }, { processIo }, { reportError }, ...commands] = await Promise.all([
    import("commander"),
    import("./core/output.ts"),
    import("./core/report-error.ts"),
    ...loaders.flatMap((load) => (load ? [load()] : [])),
  ]);

  const io = processIo();
  // The project root: the folder above cli/, whether this runs as cli/main.ts or from cli/dist/.
  const here = new URL(".", import.meta.url);
  const root = new URL(here.pathname.endsWith("/cli/dist/") ? "../../" : "../", here).pathname;
  const program = new Command("catalog")
    .description(
      "validate, build, quote, diff, publish and schedule the pricing catalogue (catalog/*.yaml)",
    )
    .showHelpAfterError("(run with --help for usage)");
  for (const command of commands) command.register(program, io, root);

  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    const { text, exitCode } = reportError(error, io.errStyle);
    io.err(text);
    process.exitCode = exitCode;
  }
}

// A promise, not a top-level await: the bundle is CommonJS (load-bundle.ts says why), which
// cannot hold one. Every failure of a command is handled inside; a failure to load is a crash.
void main();
