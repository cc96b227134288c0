import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Events } from "../db/outbox.ts";
import { RATE_RULES } from "../http/rate-limit.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { countEvents } from "../testing/tables.ts";
import { recordTelemetry, TELEMETRY_POLICY } from "./telemetry.ts";

// Real rate limits (scale 1): the point is what one client can make the server store.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 1 });
});
afterAll(async () => {
  await server.close();
});

async function databaseBytes(): Promise<number> {
  const db = server.running.deps.db;
  const pages = await db.get<{ page_count: number }>("PRAGMA page_count");
  const size = await db.get<{ page_size: number }>("PRAGMA page_size");
  return (pages?.page_count ?? 0) * (size?.page_size ?? 0);
}

async function eventRows(): Promise<number> {
  return countEvents(server.running.deps.db);
}

/** Posts `count` error reports of about `bytes` each, 50 at a time; answers their statuses. */
async function flood(count: number, bytes: number): Promise<number[]> {
  const body = JSON.stringify({ message: "flood", stack: "x".repeat(bytes) });
  const statuses: number[] = [];
  for (let start = 0; start < count; start += 50) {
    const batch = Array.from({ length: Math.min(50, count - start) }, () =>
      fetch(`${server.running.url}${api.trackJs.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      }),
    );
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("telemetry bounds (issue 7: anyone can fill the disk)", () => {
  // Each test starts with fresh rate windows, whatever the test before it left (a flood cut short
  // by its time limit would otherwise spend the next test's budget).
  beforeEach(() => {
    server.clock.advance(60_000);
  });
  // Two floods of 500 requests of up to 63 KB each: their own time limit, not the 5 s default.
  const FLOOD_MS = 60_000;

  it(
    "refuses the 500 × 63 KB attack with 413 and 429, storing nothing",
    async () => {
      const before = await databaseBytes();
      const rows = await eventRows();
      const statuses = await flood(500, 63 * 1024);
      expect(count(statuses, 413) + count(statuses, 429)).toBe(500);
      expect(count(statuses, 413)).toBe(RATE_RULES.telemetryPerIp.limit);
      expect(await eventRows()).toBe(rows);
      expect((await databaseBytes()) - before).toBeLessThan(64 * 1024);
    },
    FLOOD_MS,
  );

  it(
    "stores at most one rate budget of events just under the size cap",
    async () => {
      const before = await databaseBytes();
      const rows = await eventRows();
      const statuses = await flood(500, TELEMETRY_POLICY.maxEventBytes - 100);
      const stored = RATE_RULES.telemetryPerIp.limit;
      expect(count(statuses, 200)).toBe(stored);
      expect(count(statuses, 429)).toBe(500 - stored);
      expect(await eventRows()).toBe(rows + stored);
      // About 1 MB for the budget's events, where 500 × 63 KB grew the database by 30 MB.
      expect((await databaseBytes()) - before).toBeLessThan(2 * 1024 * 1024);
    },
    FLOOD_MS,
  );

  it("answers an oversized event with a clear 413 on each of the three calls", async () => {
    const client = server.client();
    const big = { blob: "x".repeat(TELEMETRY_POLICY.maxEventBytes) };
    const answers = [
      await client.call(api.instrumentation, { body: { eventName: "big", properties: big } }),
      await client.call(api.hubspotEvent, { params: { id: "pe1" }, body: big }),
      await client.call(api.trackJs, { body: { message: "big", ...big } }),
    ];
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 413,
        body: {
          error_code: "telemetry_too_large",
          message:
            "This event is larger than 8 KB once stored, so it was not recorded. Send fewer or shorter properties.",
        },
      });
    }
  });

  it("limits a signed-in account, then records its legitimate events again", async () => {
    const client = await server.signedIn("free@demo.test");
    const statuses: number[] = [];
    for (let i = 0; i < RATE_RULES.telemetryPerAccount.limit + 1; i++) {
      const answer = await client.call(api.instrumentation, {
        body: { eventName: "step_viewed", properties: { step: i } },
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    server.clock.advance(60_000);
    const ok = await client.call(api.instrumentation, {
      body: { eventName: "add_to_cart", properties: { plan: "wv_single_12m" } },
    });
    expect(ok.status).toBe(200);
    const [latest] = await Events.latest(server.running.deps.db, "instrumentation", 1);
    expect(latest).toMatchObject({ name: "add_to_cart", payload: { plan: "wv_single_12m" } });
  });

  it("keeps the newest events of each telemetry kind and never touches cancellations", async () => {
    const db = server.running.deps.db;
    const policy = { maxEventBytes: TELEMETRY_POLICY.maxEventBytes, maxRowsPerKind: 5 };
    const now = server.clock.now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) {
        await Events.insert(tx, {
          kind: "cancellation",
          name: `cancel_${i}`,
          userId: null,
          payload: {},
          now: now - 1000,
        });
      }
    });
    for (let i = 0; i < 12; i++) {
      for (const kind of ["trackjs", "hubspot"] as const) {
        const event = { kind, name: `${kind}_${i}`, userId: null, payload: { i } };
        await recordTelemetry(db, event, now, policy);
      }
    }
    const names = async (kind: "trackjs" | "hubspot" | "cancellation") =>
      (await Events.latest(db, kind, 100)).map((e) => e.name);
    expect(await names("trackjs")).toEqual([11, 10, 9, 8, 7].map((i) => `trackjs_${i}`));
    expect(await names("hubspot")).toEqual([11, 10, 9, 8, 7].map((i) => `hubspot_${i}`));
    expect(await names("cancellation")).toEqual(["cancel_2", "cancel_1", "cancel_0"]);
    await expect(
      recordTelemetry(
        db,
        { kind: "trackjs", name: "big", userId: null, payload: "x".repeat(10_000) },
        now,
        policy,
      ),
    ).resolves.toEqual({ ok: false, maxEventBytes: policy.maxEventBytes });
    expect(await names("trackjs")).toEqual([11, 10, 9, 8, 7].map((i) => `trackjs_${i}`));
  });
});
