import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../contract/common.ts";
import { startTestServer } from "../testing/harness.ts";
import { nestsDeeperThan, parseBody } from "./body.ts";
import { HttpError } from "./http-error.ts";

const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

function parseError(text: string): unknown {
  try {
    parseBody(Buffer.from(text), "application/json");
  } catch (error) {
    return error instanceof HttpError ? { status: error.error.status, ...error.error.body } : error;
  }
  return "parsed";
}

describe("JSON nesting depth", () => {
  it.each([
    ["arrays", 10_000, arrays],
    ["arrays", 100_000, arrays],
    ["objects", 10_000, objects],
    ["objects", 100_000, objects],
    ["unclosed arrays", 100_000, (d: number) => "[".repeat(d)],
  ])("refuses %s nested %i deep with 400 body_too_deep", (_, depth, build) => {
    expect(parseError(build(depth))).toEqual({
      status: 400,
      error_code: "body_too_deep",
      message: `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep. Send a flatter body.`,
    });
  });

  it("accepts bodies up to the limit", () => {
    expect(parseBody(Buffer.from(arrays(MAX_JSON_DEPTH)), "application/json")).toBeInstanceOf(
      Array,
    );
    expect(parseError(arrays(MAX_JSON_DEPTH + 1))).toMatchObject({ error_code: "body_too_deep" });
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: "[".repeat(1000), b: '\\"{{{{', c: [[1]] });
    expect(nestsDeeperThan(text, 3)).toBe(false);
    expect(nestsDeeperThan(text, 2)).toBe(true);
    expect(parseBody(Buffer.from(text), "application/json")).toEqual(JSON.parse(text));
  });
});

describe("a client that goes away mid-body", () => {
  it("costs one line of log at most, rate-limited, and no stack trace", {
    timeout: 60_000,
  }, async () => {
    const server = await startTestServer({ seed: false });
    let closed = false;
    try {
      const { port } = server.running;
      const abort = () =>
        new Promise<void>((done) => {
          const socket = connect(port, "127.0.0.1", () => {
            socket.write(
              "POST /api/4/analytics/instrumentation HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n" +
                '{"events":[',
            );
            setTimeout(() => socket.destroy(), 30);
          });
          socket.on("close", () => done());
          socket.on("error", () => {});
        });
      for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: 10 }, abort));
      // Closed, the server has finished with every request it began: all it logs is logged.
      await server.close();
      closed = true;
      const lines = server.log.lines.filter((line) => /went away|aborted|ECONNRESET/.test(line));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(10);
      for (const line of lines) {
        expect(line).toMatch(/^warn POST \/api\/4\/analytics\/instrumentation from .*went away/);
        expect(line).not.toContain("\n");
      }
      expect(server.log.lines.filter((line) => line.startsWith("error"))).toEqual([]);
    } finally {
      if (!closed) await server.close();
    }
  });
});
