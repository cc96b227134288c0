import { describe, expect, it } from "vitest";
import { loadCpu, type TraceEvent } from "./cart-cpu.ts";

const MAIN = { pid: 7, tid: 1 };
const OTHER = { pid: 9, tid: 1 };

function thread(at: { pid: number; tid: number }, name: string): TraceEvent {
  return { name: "thread_name", cat: "__metadata", ph: "M", ts: 0, ...at, args: { name } };
}

/** A complete event; `cpu` and `wall` in ms, `at` in ms from the start. */
function event(
  name: string,
  at: number,
  cpu: number,
  wall = cpu,
  where: { pid: number; tid: number } = MAIN,
): TraceEvent {
  return {
    name,
    cat: "x",
    ph: "X",
    ...where,
    ts: at * 1000,
    dur: wall * 1000,
    tdur: cpu * 1000,
  };
}

const task = (at: number, cpu: number, wall = cpu) => event("RunTask", at, cpu, wall);

describe("loadCpu", () => {
  it("counts the page's main thread in CPU time, not wall time", () => {
    const figures = loadCpu([
      thread(MAIN, "CrRendererMain"),
      thread(OTHER, "CrRendererMain"),
      // A loaded machine: the task took 60 ms of wall time for 10 ms of CPU.
      task(0, 10, 60),
      task(100, 2),
      event("RunTask", 0, 1, 1, OTHER),
    ]);
    expect(figures.taskCpuMs).toBe(12);
    // 4 x 10 ms = 40 ms: not long; at wall time it would have been 240 ms.
    expect(figures.longTasks).toBe(0);
    expect(figures.blockingAt4xMs).toBe(0);
    expect(figures.longestTaskAt4xMs).toBe(40);
  });

  it("sums four times each task's CPU time over 50 ms, after the first contentful paint", () => {
    const figures = loadCpu([
      thread(MAIN, "CrRendererMain"),
      task(0, 30), // before the paint: 120 ms at 4x, not counted as blocking
      { name: "firstContentfulPaint", cat: "loading", ph: "R", ...MAIN, ts: 50_000 },
      task(60, 20), // 80 ms at 4x: 30 ms blocking
      task(100, 12.5), // exactly 50 ms at 4x: not long
      task(200, 25), // 100 ms: 50 ms blocking
    ]);
    expect(figures.longTasks).toBe(2);
    expect(figures.blockingAt4xMs).toBe(80);
    expect(figures.longestTaskAt4xMs).toBe(100);
    expect(figures.taskCpuMs).toBe(87.5);
  });

  it("counts script time once when script events nest, and both task names once", () => {
    const figures = loadCpu([
      thread(MAIN, "CrRendererMain"),
      event("ThreadControllerImpl::RunTask", 0, 10),
      event("RunTask", 0, 10),
      event("v8.evaluateModule", 1, 6),
      event("FunctionCall", 2, 3), // inside the module's evaluation
      event("FunctionCall", 8, 1),
    ]);
    expect(figures.taskCpuMs).toBe(10);
    expect(figures.scriptCpuMs).toBe(7);
  });

  it("says so when the trace has no page thread", () => {
    expect(() => loadCpu([thread(MAIN, "Compositor"), task(0, 5)])).toThrow(
      "the trace has no renderer main thread with tasks",
    );
  });
});
