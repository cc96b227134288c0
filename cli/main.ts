// The `catalog` command: parses arguments, runs one command, prints, sets the exit code. Each
// command lives in commands/<name>.ts and loads what it needs only when it runs, so that a quick
// `catalog validate` does not pay for the JSON Schema emitter or the pricing module. Runs as
// TypeScript (`node cli/main.ts`) or bundled (cli/dist/catalog.cjs; scripts/build-cli.ts,
// decision 0017).
import { enableCompileCache } from "node:module";

// Before any other import, so that later modules load from Node's on-disk compile cache (bin.cjs
// switches it on even earlier, before this file itself is compiled).
enableCompileCache();

const COMMANDS = {
  validate: () => import("./commands/validate.ts"),
  build: () => import("./commands/build.ts"),
  quote: () => import("./commands/quote.ts"),
  diff: () => import("./commands/diff.ts"),
  publish: () => import("./commands/publish.ts"),
  schedule: () => import("./commands/schedule.ts"),
  experiment: () => import("./commands/experiment.ts"),
  report: () => import("./commands/report.ts"),
};

async function main(): Promise<void> {
  // zod compiles a fast path for each object schema the first time it parses with it, which pays
  // off over many parses; a run parses each catalogue file once. Process-wide, as this process
  // is one command's run; set before any schema is built, as zod reads it then.
  const { config } = await import("zod");
  config({ jitless: true });

  // Only the command named on the command line is loaded (its options must be declared before
  // parsing); help, a typo or no command at all loads every command, so help lists them all.
  const named = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
  const loaders =
    named !== undefined && Object.hasOwn(COMMANDS, named)
      ? [COMMANDS[named as keyof typeof COMMANDS]]
      : Object.values(COMMANDS);

  const [{ Command }, { processIo }, { reportError }, ...commands] = await Promise.all([
    import("commander"),
    import("./core/output.ts"),
    import("./core/report-error.ts"),
    ...loaders.map((load) => load()),
  ]);

  const io = processIo();
  // The project root: the folder above cli/, whether this runs as cli/main.ts or from cli/dist/.
  const here = new URL(".", import.meta.url);
  const root = new URL(here.pathname.endsWith("/cli/dist/") ? "../../" : "../", here).pathname;
  const program = new Command("catalog")
    .description(
      "validate, build, quote, diff, publish and schedule the pricing catalogue (catalog/*.yaml), end its price experiments, and report what its prices did",
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

// A promise, not a top-level await: the bundle is CommonJS (scripts/build-cli.ts says why), which
// cannot hold one. Every failure of a command is handled inside; a failure to load is a crash.
void main();
