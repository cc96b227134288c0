// Two servers on one PostgreSQL: the open loop spread over both, then the money checks (every
// charge once, the seat limit held).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { endpoints } from "../../src/contract/endpoints.ts";
import { cardAccounts, post, signIn } from "./accounts.ts";
import { cpus, startChild, stopChild } from "./children.ts";
import { benchSchema, postgresEnv } from "./database.ts";
import { type Figures, percentile } from "./load.ts";
import {
  ARRIVAL_MS,
  ARRIVAL_WARM_UP_MS,
  ARRIVALS_PER_SECOND,
  arrivalFigures,
  arrivals,
  BUYERS,
} from "./purchases.ts";

export const SERVERS = 2;

/**
 * Several servers (SERVERS) on one PostgreSQL database (a schema of their own): the same open
 * loop spread over them, then the money checks of src/server/several-servers.test.ts and
 * services/account-safety.test.ts at bench scale: every purchase answered 200 is one order and
 * one successful charge, none more; and ten people joining the demo team (5 seats, 2 in use) by
 * its coupon all at once, spread over the servers, leave it at 5 seats in use.
 */
export async function severalServers(
  url: string,
): Promise<{ figures: Figures; p99: number; serverCpuUs: number }> {
  const schema = await benchSchema(url);
  const env = postgresEnv(schema.url, randomBytes(32).toString("base64url"));
  const servers: ChildProcess[] = [];
  const client = new pg.Client({ connectionString: schema.url });
  try {
    // One after the other: the first migrates and seeds, the others find it done.
    const urls: string[] = [];
    for (let s = 0; s < SERVERS; s++) {
      const started = await startChild("child-api", env, Math.max(0, cpus - 1 - s));
      servers.push(started.child);
      urls.push(started.url);
    }
    await client.connect();
    const count = async (sql: string) => Number((await client.query(sql)).rows[0]?.n ?? 0);
    const charges = "SELECT COUNT(*) AS n FROM sandbox_charges WHERE error_code IS NULL";
    const orders = "SELECT COUNT(*) AS n FROM orders";
    const cookies = await cardAccounts(urls[0] ?? "", BUYERS);
    const chargesBefore = await count(charges);
    const ordersBefore = await count(orders);
    await arrivals(urls, cookies, { perSecond: ARRIVALS_PER_SECOND, ms: ARRIVAL_WARM_UP_MS });
    const warmUpOrders = (await count(orders)) - ordersBefore;
    const warmUpCharges = (await count(charges)) - chargesBefore;
    const run = await arrivals(urls, cookies, {
      perSecond: ARRIVALS_PER_SECOND,
      ms: ARRIVAL_MS,
      pids: servers.map((s) => s.pid),
    });
    const newOrders = (await count(orders)) - ordersBefore - warmUpOrders;
    const newCharges = (await count(charges)) - chargesBefore - warmUpCharges;
    const seats = await seatsHeld(urls, client);
    const figures: Figures = {
      ...arrivalFigures(`PostgreSQL, ${SERVERS} servers: `, run),
      [`PostgreSQL, ${SERVERS} servers: purchases answered 200 / orders / charges`]: `${run.ok} / ${newOrders} / ${newCharges}`,
      [`PostgreSQL, ${SERVERS} servers: every charge once`]:
        run.ok === newOrders && newOrders === newCharges ? "yes" : "NO",
      [`PostgreSQL, ${SERVERS} servers: demo team's seats in use after 10 joins (5 seats)`]:
        seats.used,
      [`PostgreSQL, ${SERVERS} servers: seat limit held`]:
        seats.used === 5 && seats.joined === 3 ? "yes" : `NO (${seats.joined} joined)`,
    };
    return { figures, p99: percentile(run.latencies, 99), serverCpuUs: run.serverCpuUs };
  } finally {
    await client.end().catch(() => {});
    for (const child of servers) await stopChild(child);
    await schema.drop();
  }
}

/** Ten new accounts join the demo team by its coupon at once, alternating between the servers. */
export async function seatsHeld(urls: string[], client: pg.Client) {
  const run = randomBytes(4).toString("hex");
  const joiners: { url: string; cookie: string }[] = [];
  for (let i = 0; i < 10; i++) {
    const url = urls[i % urls.length] ?? "";
    const email = `bench-join-${run}-${i}@example.com`;
    const signUp = await post(url, endpoints.signUp.path, {
      email,
      password: "bench-password",
      firstName: "Join",
      lastName: String(i),
    });
    if (!signUp.response.ok) throw new Error(`bench: sign-up answered ${signUp.response.status}`);
    joiners.push({ url, cookie: await signIn(url, email, "bench-password") });
  }
  const path = endpoints.applyCoupon.path.replace(":code", "demoteam");
  const answers = await Promise.all(
    joiners.map((j) => post(j.url, path, {}, { cookie: j.cookie })),
  );
  const used = await client.query(
    "SELECT COUNT(*) AS n FROM users u JOIN instances i ON i.id = u.instance_id WHERE i.name = 'demo-team' AND u.member_state = 'approved'",
  );
  return {
    joined: answers.filter((a) => a.response.ok).length,
    used: Number(used.rows[0]?.n ?? 0),
  };
}
