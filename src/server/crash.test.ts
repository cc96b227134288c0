// Kills the server (SIGKILL) during a stream of payments, restarts it on the same data folder and
// checks that every acknowledged order is there, that no order is half-written, and that retrying
// the unacknowledged payments charges each at most once.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { api } from "../api/contract/index.ts";
import { DEMO_PASSWORD } from "./seed.ts";
import { TestClient } from "./testing/harness.ts";

const child = fileURLToPath(new URL("./testing/crash-child.ts", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "checkout-crash-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

function start(): Promise<{ process: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child], {
      env: { ...process.env, DATA_DIR: dataDir, PAYMENTS: "sandbox", SEED: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(proc);
    let out = "";
    let err = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\S+)/.exec(out);
      if (m?.[1]) resolve({ process: proc, url: m[1] });
    });
    proc.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.on("exit", (code) =>
      reject(new Error(`server exited (${code}) before it was ready: ${err}`)),
    );
  });
}

type Sent = { key: string; code: string; orderId: string | null };

describe("crash during payments", () => {
  it("keeps every acknowledged order and no half-written one", async () => {
    const first = await start();
    const client = new TestClient(first.url);
    const signIn = await client.call(api.signIn, {
      body: { email: "monthly@demo.test", password: DEMO_PASSWORD },
    });
    expect(signIn.ok).toBe(true);

    const sent: Sent[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const entry: Sent = {
          key: `crash-${w}-${i}`,
          code: i % 2 === 0 ? "single_export_hd" : "single_export_4k",
          orderId: null,
        };
        sent.push(entry);
        try {
          const answer = await client.call(api.upgrade, {
            body: { product: { code: entry.code } },
            idempotencyKey: entry.key,
          });
          if (answer.ok) entry.orderId = answer.body.orderId;
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    while (sent.filter((s) => s.orderId).length < 40) await new Promise((r) => setTimeout(r, 5));
    first.process.kill("SIGKILL");
    stop = true;
    await Promise.all(workers);
    const acknowledged = sent.filter((s) => s.orderId !== null);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    // Payments were in flight when the server died.
    expect(sent.length).toBeGreaterThan(acknowledged.length);

    const second = await start();
    const again = new TestClient(second.url);
    await again.call(api.signIn, { body: { email: "monthly@demo.test", password: DEMO_PASSWORD } });
    // Every payment again with its key: acknowledged ones replay, the others complete now.
    for (const s of sent) {
      const answer = await again.call(api.upgrade, {
        body: { product: { code: s.code } },
        idempotencyKey: s.key,
      });
      expect(answer.ok, JSON.stringify(answer.body)).toBe(true);
      if (answer.ok && s.orderId !== null) expect(answer.body.orderId).toBe(s.orderId);
    }
    const stopped = new Promise((r) => second.process.once("exit", r));
    second.process.kill("SIGTERM");
    await stopped;

    const db = new DatabaseSync(join(dataDir, "checkout.sqlite"));
    try {
      const orders = db
        .prepare("SELECT id, idempotency_key, total, charge_ref FROM orders WHERE kind = 'one_off'")
        .all() as {
        id: string;
        idempotency_key: string;
        total: number;
        charge_ref: string;
      }[];
      const ids = new Set(orders.map((o) => o.id));
      for (const s of acknowledged) expect(ids.has(s.orderId ?? "")).toBe(true);
      // One order per payment sent, each with its own charge of the same amount.
      expect(orders.length).toBe(sent.length);
      expect(new Set(orders.map((o) => o.idempotency_key)).size).toBe(sent.length);
      const charges = db
        .prepare("SELECT id, amount FROM sandbox_charges WHERE error_code IS NULL")
        .all() as { id: string; amount: number }[];
      const amount = new Map(charges.map((c) => [c.id, c.amount]));
      for (const o of orders) expect(amount.get(o.charge_ref)).toBe(o.total);
      expect(charges.length).toBe(orders.length);
      // Every stored answer names an order that exists, and no key is left pending.
      const keys = db
        .prepare("SELECT state, response FROM idempotency_keys WHERE key LIKE 'crash-%'")
        .all() as {
        state: string;
        response: string | null;
      }[];
      expect(keys.every((k) => k.state === "done")).toBe(true);
      for (const k of keys) expect(ids.has(JSON.parse(k.response ?? "{}").orderId)).toBe(true);
      expect(
        (db.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check,
      ).toBe("ok");
    } finally {
      db.close();
    }
  }, 30_000);
});
