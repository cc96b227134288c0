// Where commands print, and whether in colour: only on a terminal, never with NO_COLOR set
// (https://no-color.org: present and not empty).

export type Stream = { write(text: string): unknown; isTTY?: boolean };

export type Style = {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
};

export type Io = {
  out(text: string): void;
  err(text: string): void;
  /** Styles for stdout and stderr (each plain unless that stream is a colour terminal). */
  style: Style;
  errStyle: Style;
  env: Record<string, string | undefined>;
  cwd: string;
};

const ansi = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;
const identity = (text: string) => text;

export const plain: Style = {
  red: identity,
  green: identity,
  yellow: identity,
  dim: identity,
  bold: identity,
};
export const colour: Style = {
  red: ansi(31, 39),
  green: ansi(32, 39),
  yellow: ansi(33, 39),
  dim: ansi(2, 22),
  bold: ansi(1, 22),
};

export function wantsColour(stream: Stream, env: Record<string, string | undefined>): boolean {
  const noColor = env.NO_COLOR;
  return stream.isTTY === true && (noColor === undefined || noColor === "");
}

/** The process's own streams, with a newline after each print. */
export function processIo(): Io {
  const env = process.env;
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    style: wantsColour(process.stdout, env) ? colour : plain,
    errStyle: wantsColour(process.stderr, env) ? colour : plain,
    env,
    cwd: process.cwd(),
  };
}

/** Captures what a command prints, for tests. */
export function memoryIo(
  options: Partial<Pick<Io, "env" | "cwd">> = {},
): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    style: plain,
    errStyle: plain,
    env: options.env ?? {},
    cwd: options.cwd ?? "/",
    stdout,
    stderr,
  };
}
