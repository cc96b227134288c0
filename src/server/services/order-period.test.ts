// An order's period end comes from the shared calendar (src/domain/calendar): a month bought on
// 31 January ends on the last day of February, not on 2 or 3 March.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { testClock } from "../clock.ts";
import { Orders } from "../db/orders.ts";
import { newKey, startTestServer, type TestServer } from "../testing/harness.ts";
import { saveSandboxCard } from "../testing/sandbox-cards.ts";

// 31 January of a leap year, in the afternoon (UTC).
const BOUGHT = Date.UTC(2028, 0, 31, 15, 30);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: testClock(BOUGHT), seed: false });
});
afterAll(async () => {
  await server.close();
});

describe("order period", () => {
  it("ends a monthly plan bought on 31 January on 29 February, at the time it was bought", async () => {
    const client = server.client();
    const signUp = await client.call(api.signUp, {
      body: {
        email: "jan31@example.com",
        password: "secret-1",
        firstName: "Jan",
        lastName: "Last",
      },
    });
    if (!signUp.ok) throw new Error(signUp.body.message);
    await saveSandboxCard(client);

    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_unloct17_1m" } },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);

    const feb29 = Date.UTC(2028, 1, 29, 15, 30);
    const order = await Orders.byId(server.running.deps.db, bought.body.orderId);
    expect({ period_start: order?.periodStart, period_end: order?.periodEnd }).toEqual({
      period_start: BOUGHT,
      period_end: feb29,
    });
    const context = await client.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({ orderEndDate: feb29 });
  });
});
