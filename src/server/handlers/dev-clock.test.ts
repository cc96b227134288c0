// The settable clock (issue 11, "test clocks, offline"): a local run only, moved through
// /dev/clock, refused at start-up anywhere else.
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningClock } from "../clock.ts";
import { getConfig } from "../config.ts";
import { memoryLogger } from "../log.ts";
import { ConfigError, type RunningServer, startServer } from "../main.ts";
import { fixtureCatalog } from "../testing/fixture-catalog.ts";
import { startTestServer } from "../testing/harness.ts";
import { DEPLOYED_SELLER } from "../testing/seller.ts";

const stripe = {
  PAYMENTS: "stripe",
  STRIPE_SECRET_KEY: "sk_test_abc",
  STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
};
const deployed = {
  ...stripe,
  ...DEPLOYED_SELLER,
  PUBLIC_BASE_URL: "https://checkout.example.com",
};
const START = "2026-01-15T12:00:00Z";

describe("the settable clock's configuration", () => {
  it("starts a local run's clock at CLOCK_START; CLOCK=settable alone starts it now", () => {
    expect(getConfig({ CLOCK_START: START })).toMatchObject({
      ok: true,
      config: { clock: { settable: true, startMs: Date.parse(START) } },
    });
    expect(getConfig({ CLOCK: "settable" })).toMatchObject({
      ok: true,
      config: { clock: { settable: true, startMs: null } },
    });
    expect(getConfig({ RENEWAL_INTERVAL_SECONDS: "5" })).toMatchObject({
      ok: true,
      config: { clock: { settable: false }, renewalIntervalMs: 5000 },
    });
  });

  it("is refused outside a local run, naming the variable", () => {
    for (const [name, value] of [
      ["CLOCK", "settable"],
      ["CLOCK_START", START],
    ] as const) {
      const result = getConfig({ ...deployed, [name]: value });
      expect(!result.ok && result.errors).toEqual([
        `${name} cannot be set outside a local run: a settable clock exists only when HOST and PUBLIC_BASE_URL are loopback addresses (PUBLIC_BASE_URL is "https://checkout.example.com") (got "${value}")`,
      ]);
    }
    expect(getConfig({ ...deployed, CLOCK: "system" }).ok).toBe(true);
  });

  it("refuses a start time that is not an ISO time, or one the system clock would ignore", () => {
    expect(getConfig({ CLOCK_START: "15/01/2026" })).toEqual({
      ok: false,
      errors: [
        'CLOCK_START must be an ISO 8601 time with a zone, such as 2026-01-15T12:00:00Z (got "15/01/2026")',
      ],
    });
    const system = getConfig({ CLOCK: "system", CLOCK_START: START });
    expect(!system.ok && system.errors[0]).toMatch(/^CLOCK_START needs CLOCK=settable/);
    const interval = getConfig({ RENEWAL_INTERVAL_SECONDS: "-1" });
    expect(!interval.ok && interval.errors[0]).toMatch(/^RENEWAL_INTERVAL_SECONDS must be/);
  });

  it("runs a started clock at the speed of real time between jumps", () => {
    let real = 1_000;
    const clock = runningClock(Date.parse(START), () => real);
    expect(clock.now()).toBe(Date.parse(START));
    real += 250;
    expect(clock.now()).toBe(Date.parse(START) + 250);
    const heard: number[] = [];
    clock.onChange((now) => heard.push(now));
    clock.advance(86_400_000);
    clock.set(Date.parse("2027-01-01T00:00:00Z"));
    expect(heard).toEqual([
      Date.parse(START) + 250 + 86_400_000,
      Date.parse("2027-01-01T00:00:00Z"),
    ]);
    real += 10;
    expect(clock.now()).toBe(Date.parse("2027-01-01T00:00:00Z") + 10);
  });

  it("stops start-up outside a local run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "checkout-clock-"));
    try {
      await expect(
        startServer({
          env: { ...deployed, DATA_DIR: dir, CLOCK: "settable" },
          port: 0,
          log: memoryLogger(),
          catalog: fixtureCatalog(),
        }),
      ).rejects.toThrow(ConfigError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("/dev/clock in a local run started with CLOCK_START", () => {
  let running: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "checkout-clock-"));
    running = await startServer({
      env: { DATA_DIR: dir, CLOCK_START: START, SEED: "false", RENEWAL_INTERVAL_SECONDS: "0" },
      port: 0,
      host: "127.0.0.1",
      log: memoryLogger(),
      catalog: fixtureCatalog(),
      passwordCost: 10,
    });
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: unknown) =>
    fetch(`${running.url}/dev/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("reads the clock, moves it forward, and answers once the worker has caught up", async () => {
    const read = (await (await fetch(`${running.url}/dev/clock`)).json()) as { now: number };
    expect(read.now).toBeGreaterThanOrEqual(Date.parse(START));
    expect(read.now).toBeLessThan(Date.parse(START) + 60_000);
    // With RENEWAL_INTERVAL_SECONDS=0 the server has no worker: the clock still moves.
    expect(running.renewals).toBeNull();
    // The local run's clock keeps running at real speed after a move, so the answer reads the
    // moved-to time plus at most the real time the request took, never less and never more.
    const target = Date.parse("2027-02-15T12:00:00Z");
    const setSentAt = Date.now();
    const moved = (await (await post({ set: "2027-02-15T12:00:00Z" })).json()) as {
      now: number;
      iso: string;
      renewals: unknown;
    };
    const setTook = Date.now() - setSentAt;
    expect(moved.renewals).toBeNull();
    expect(moved.now).toBeGreaterThanOrEqual(target);
    expect(moved.now).toBeLessThanOrEqual(target + setTook);
    expect(moved.iso).toBe(new Date(moved.now).toISOString());
    const advanced = (await (await post({ advanceMs: 1000 })).json()) as { now: number };
    // Between the two readings ran at most the real time from sending the move to the advance's
    // answer, the pause between the two requests included.
    const sinceMove = Date.now() - setSentAt;
    expect(advanced.now).toBeGreaterThanOrEqual(moved.now + 1000);
    expect(advanced.now).toBeLessThanOrEqual(moved.now + 1000 + sinceMove);
    expect(running.deps.clock.now()).toBeGreaterThanOrEqual(advanced.now);
  });

  it("only moves forward and refuses anything but advanceMs or set", async () => {
    for (const body of [
      { set: START },
      { advanceMs: -1 },
      { advanceMs: 1, set: 5 },
      { set: "tomorrow" },
      {},
    ]) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(await answer.json()).toMatchObject({ error_code: "invalid_request" });
    }
  });

  it("refuses a request addressed to another host name (DNS rebinding)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${running.url}/dev/clock`,
        { headers: { host: "evil.example:80" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(404);
  });
});

describe("/dev/clock elsewhere", () => {
  it("does not exist in a local run without a settable clock, nor in a deployment", async () => {
    const local = await startTestServer({ seed: false });
    const deployment = await startTestServer({ seed: false, env: { ...deployed, SEED: "" } });
    try {
      expect(deployment.running.deps.config.local).toBe(false);
      for (const server of [local, deployment]) {
        expect((await fetch(`${server.running.url}/dev/clock`)).status).toBe(404);
        const posted = await fetch(`${server.running.url}/dev/clock`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ advanceMs: 1 }),
        });
        expect(posted.status).toBe(404);
      }
      expect(local.clock.now()).toBe(deployment.clock.now()); // neither moved
    } finally {
      await local.close();
      await deployment.close();
    }
  });
});
