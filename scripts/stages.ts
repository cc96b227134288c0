// How `npm test` runs its stages (decision 0072): each starts as soon as the stages it comes after
// have passed and a core is free, so a single-threaded check (astro check) no longer leaves the
// other core idle, and the browser install runs beside everything before the browser stage.
// What a reader sees stays the order of the stage table: a stage's output goes to the terminal
// while it is the first unfinished stage, and is held until then otherwise.

export type Stage = {
  name: string;
  title: string;
  /** Run one after another, each when the one before passed; all at once when `together`. */
  commands: string[][];
  /** A file that must exist when the stage starts. */
  needs?: string;
  /**
   * The commands run at once, each one's output held back and printed whole, in order, when all
   * have ended: neither waits for the other, and a failure still reads as one command's output.
   */
  together?: boolean;
  /** Stages (of those selected) that must have passed before this one starts. */
  after?: string[];
  /**
   * The stage's commands keep every core busy (vitest's and Playwright's workers): one starts
   * only when at most one single-threaded command still runs, and nothing starts beside it.
   */
  fillsMachine?: boolean;
  /**
   * Commands started with the run, beside every other stage, that this stage's own commands wait
   * for (the browser install: downloading and unpacking, mostly waiting on the network and disk).
   * They hold no core; their output opens the stage's.
   */
  early?: string[][];
};

/** Runs a command to its end; its output goes to `write`. Resolves to its exit code. */
export type Runner = (
  command: string[],
  write: (chunk: string | Uint8Array) => void,
) => Promise<number>;

export type StagesDeps = {
  cores: number;
  run: Runner;
  /** Where the log goes (the terminal). */
  out: (chunk: string | Uint8Array) => void;
  now: () => number;
  exists: (path: string) => boolean;
  /** A command's name in the log. */
  label: (command: string[]) => string;
};

export type StagesResult = {
  /** 0 when every stage passed; else the exit code of the first failed stage, in table order. */
  code: number;
  passed: number;
  failed: number;
  /** "name 12.3s", "name FAILED 4.0s", or "name not run", in table order. */
  timings: string[];
};

type JobStatus = "waiting" | "running" | "passed" | "failed" | "skipped";

type Job = {
  command: string[];
  status: JobStatus;
  code: number;
  started: number;
  ended: number;
  /** Output held back: a together command's, or an early command's. */
  held?: (string | Uint8Array)[];
};

type StageRun = {
  stage: Stage;
  early: Job[];
  own: Job[];
  status: "waiting" | "running" | "passed" | "failed" | "not run";
  started: number;
  ended: number;
  code: number;
  /** Output written while an earlier stage was still unfinished. */
  pending: (string | Uint8Array)[];
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

const newJob = (command: string[], held: boolean): Job => ({
  command,
  status: "waiting",
  code: 0,
  started: 0,
  ended: 0,
  ...(held ? { held: [] } : {}),
});

/** Runs the stages (already selected, in table order) and reports each one's time. */
export function runStages(stages: Stage[], deps: StagesDeps): Promise<StagesResult> {
  const runs: StageRun[] = stages.map((stage) => ({
    stage,
    early: (stage.early ?? []).map((command) => newJob(command, true)),
    own: stage.commands.map((command) => newJob(command, stage.together === true)),
    status: "waiting",
    started: 0,
    ended: 0,
    code: 0,
    pending: [],
  }));
  let front = 0;
  let failedAny = false;
  let resolveAll: (result: StagesResult) => void = () => {};
  const done = new Promise<StagesResult>((resolve) => {
    resolveAll = resolve;
  });

  /** Output of a stage: to the terminal while it is the first unfinished stage, else held. */
  const write = (run: StageRun, chunk: string | Uint8Array) => {
    if (runs[front] === run) deps.out(chunk);
    else run.pending.push(chunk);
  };

  const coresInUse = () =>
    runs
      .filter((run) => run.status === "running")
      .reduce(
        (sum, run) =>
          sum +
          run.own.filter((job) => job.status === "running").length *
            (run.stage.fillsMachine ? deps.cores : 1),
        0,
      );

  const start = (run: StageRun, job: Job) => {
    job.status = "running";
    job.started = deps.now();
    const sink = (chunk: string | Uint8Array) => {
      if (job.held) job.held.push(chunk);
      else write(run, chunk);
    };
    deps.run(job.command, sink).then(
      (code) => finish(run, job, code),
      (error: unknown) => {
        sink(`${String(error)}\n`);
        finish(run, job, 1);
      },
    );
  };

  const finish = (run: StageRun, job: Job, code: number) => {
    job.ended = deps.now();
    job.code = code;
    job.status = code === 0 ? "passed" : "failed";
    // A failed command: the commands of its stage that were to come after it never run.
    if (code !== 0 && !run.stage.together) {
      for (const next of run.own) if (next.status === "waiting") next.status = "skipped";
    }
    step();
  };

  const open = (run: StageRun) => {
    run.status = "running";
    run.started = deps.now();
    write(run, `\n=== test: ${run.stage.name}: ${run.stage.title} ===\n`);
    for (const job of run.early) {
      write(
        run,
        `--- ${deps.label(job.command)} (beside the stages before it: ${seconds(job.ended - job.started)}) ---\n`,
      );
      for (const chunk of job.held ?? []) write(run, chunk);
    }
  };

  const close = (run: StageRun, failure?: { code: number; why: string }) => {
    run.ended = deps.now();
    if (run.stage.together) {
      for (const job of run.own) {
        write(run, `--- ${deps.label(job.command)} (exit code ${job.code}) ---\n`);
        for (const chunk of job.held ?? []) write(run, chunk);
      }
    }
    const failed = failure ?? run.own.find((job) => job.status === "failed");
    if (failed) {
      run.status = "failed";
      run.code = failed.code || 1;
      failedAny = true;
      const why = failure?.why ?? `failed with exit code ${run.code}`;
      write(run, `\n✗ test: stage "${run.stage.name}" (${run.stage.title}) ${why}.\n`);
    } else {
      run.status = "passed";
      write(run, `=== test: ${run.stage.name} passed in ${seconds(run.ended - run.started)} ===\n`);
    }
  };

  const launch = () => {
    for (const run of runs) {
      if (run.status === "waiting") {
        // After a failure nothing new starts; what runs goes on to its end.
        if (failedAny) continue;
        const afterPassed = (run.stage.after ?? []).every((name) => {
          const before = runs.find((r) => r.stage.name === name);
          return before === undefined || before.status === "passed";
        });
        if (!afterPassed || run.early.some((job) => job.status === "running")) continue;
        if (coresInUse() >= deps.cores) return;
        open(run);
        const earlyFailed = run.early.find((job) => job.status === "failed");
        if (earlyFailed) {
          close(run, {
            code: earlyFailed.code,
            why: `failed: ${deps.label(earlyFailed.command)} exited with ${earlyFailed.code}`,
          });
          continue;
        }
        if (run.stage.needs && !deps.exists(run.stage.needs)) {
          close(run, { code: 1, why: `cannot run: ${run.stage.needs} does not exist` });
          continue;
        }
      }
      if (run.status !== "running") continue;
      const next = run.stage.together
        ? run.own.filter((job) => job.status === "waiting")
        : run.own.filter(
            (job, i) =>
              job.status === "waiting" && (i === 0 || run.own[i - 1]?.status === "passed"),
          );
      for (const job of next) {
        if (coresInUse() >= deps.cores) return;
        start(run, job);
      }
    }
  };

  /** Prints the stages that have ended, in table order, and hands the terminal to the next. */
  const advance = () => {
    while (front < runs.length) {
      const run = runs[front] as StageRun;
      for (const chunk of run.pending.splice(0)) deps.out(chunk);
      const ended = run.status === "passed" || run.status === "failed" || run.status === "not run";
      if (!ended) return;
      front += 1;
    }
  };

  const anyRunning = () =>
    runs.some((run) => [...run.early, ...run.own].some((job) => job.status === "running"));

  const step = () => {
    for (const run of runs) {
      if (run.status !== "running") continue;
      if (run.own.some((job) => job.status === "running" || job.status === "waiting")) continue;
      close(run);
    }
    launch();
    const ended = !anyRunning();
    if (ended) {
      for (const run of runs) if (run.status === "waiting") run.status = "not run";
    }
    advance();
    if (ended) resolveAll(result());
  };

  const result = (): StagesResult => {
    const failed = runs.filter((run) => run.status === "failed");
    return {
      code: failed[0]?.code ?? 0,
      passed: runs.filter((run) => run.status === "passed").length,
      failed: failed.length,
      timings: runs.map((run) => {
        const time = seconds(run.ended - run.started);
        if (run.status === "passed") return `${run.stage.name} ${time}`;
        if (run.status === "failed") return `${run.stage.name} FAILED ${time}`;
        return `${run.stage.name} not run`;
      }),
    };
  };

  for (const run of runs) for (const job of run.early) start(run, job);
  step();
  return done;
}
