// A failure the user can act on: the entry file prints its message (no stack) and exits with its
// code. Anything else that escapes a command is a bug and is reported as one.
export class ExitError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "ExitError";
    this.exitCode = exitCode;
  }
}
