// The server reports the version of the catalogue it prices with, and every paid order records
// it with the price set it used (decision 0018).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../contract/index.ts";
import { catalogVersion } from "../domain/catalog/version.ts";
import { loadLatestRelease } from "./catalog.ts";
import { Orders } from "./db/orders.ts";
import { newKey, startTestServer, type TestServer } from "./testing/harness.ts";
import { saveSandboxCard } from "./testing/sandbox-cards.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("catalogue version", () => {
  it("is reported by GET /api/5/catalog/version, signed out", async () => {
    const answer = await server.client().call(api.catalogVersion, {});
    expect(answer).toMatchObject({ ok: true, body: { version: catalogVersion(server.catalog) } });
    const release = loadLatestRelease();
    expect(answer.ok && answer.body.release).toEqual(
      release && { version: release.version, publishedAt: release.publishedAt },
    );
  });

  it("is recorded on a paid order and its invoice, with the price set", async () => {
    const client = server.client();
    const signUp = await client.call(api.signUp, {
      body: { email: "versioned@example.com", password: "secret-1", firstName: "V", lastName: "B" },
    });
    if (!signUp.ok) throw new Error(signUp.body.message);
    await saveSandboxCard(client, { postalCode: "94107" });
    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_unloct17_12m", name: "Unlimited" }, newCart: true },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    const order = await Orders.byId(server.running.deps.db, bought.body.orderId);
    const row = {
      catalog_version: order?.catalogVersion,
      price_set: order?.priceSet,
      invoice_id: order?.invoiceId,
    };
    expect(row).toMatchObject({
      catalog_version: catalogVersion(server.catalog),
      price_set: "default",
      invoice_id: expect.stringMatching(/^in/),
    });
  });
});
