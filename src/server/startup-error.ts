// A reason start-up cannot go on that the operator has to fix: a bad environment variable, or a
// data folder whose database or secret is missing, damaged or read-only. The message says what is
// wrong, names the file and says what to do; run as a program the server prints it and exits 1
// without a stack trace, which would only bury it. Called from code (tests), start-up throws it.
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}
