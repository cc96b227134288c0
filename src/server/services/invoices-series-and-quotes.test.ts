// The business details on invoices, an invoice series that cannot be inflated, and quotes with
// their PDFs under a flood (issue 23).

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Invoices } from "../db/invoices.ts";
import { newKey, startTestServer } from "../testing/harness.ts";
import {
  buy,
  buyer,
  documentsOf,
  htmlToLines,
  server,
  startsInvoiceServer,
} from "../testing/invoice-flow.ts";
import { extractPdfText } from "../testing/pdf-text.ts";
import { saveSandboxCard } from "../testing/sandbox-cards.ts";

startsInvoiceServer();

describe("business details", () => {
  it("refuses a VAT id whose check digits fail, saving nothing", async () => {
    const { client } = await server.verifiedAccount("typo@example.de", "secret-password-1");
    await client.call(api.address, { body: { country: "DE" } });
    const saved = await client.call(api.saveBillingDetails, {
      body: { organisation: "Typo GmbH", taxId: "DE136695977" },
    });
    expect(saved).toMatchObject({
      ok: false,
      status: 400,
      body: { error_code: "invalid_tax_id" },
    });
    const now = await client.call(api.billingDetails, {});
    expect(now.ok && now.body).toMatchObject({
      organisation: null,
      taxId: null,
      reverseCharge: false,
    });
  });

  it("changed later, re-issues an invoice only as a credit note plus a new invoice", async () => {
    const client = await buyer({
      email: "later@example.de",
      address: { name: "Kim", country: "DE" },
    });
    await buy(client, "wv_unloct17_12m");
    const [first] = await documentsOf(client);
    const saved = await client.call(api.saveBillingDetails, {
      body: { organisation: "Later GmbH", taxId: "DE136695976", reissue: true },
    });
    if (!saved.ok) throw new Error(saved.body.message);
    expect(saved.body.reverseCharge).toBe(true);
    expect(saved.body.reissued).toHaveLength(1);
    const docs = await documentsOf(client);
    const credit = docs.find((d) => d.kind === "credit_note");
    expect(docs).toHaveLength(3);
    expect(credit).toMatchObject({ refersTo: first?.number, total: -(first?.total ?? 0) });
    expect(docs.find((d) => d.number === first?.number)?.creditedBy).toBe(credit?.number);
    expect(docs.find((d) => d.number === saved.body.reissued[0])).toMatchObject({
      kind: "invoice",
      creditedBy: null,
      total: first?.total,
    });
    const fresh = await Invoices.byNumber(server.running.deps.db, saved.body.reissued[0] ?? "");
    const old = await Invoices.byNumber(server.running.deps.db, first?.number ?? "");
    expect(fresh?.document.buyer).toMatchObject({ name: "Later GmbH", taxId: "DE136695976" });
    // The figures charged stay: a re-issue names the buyer anew, it does not reprice.
    expect(fresh?.document.total).toBe(old?.document.total);
    expect(fresh?.document.notes).toContain(`Replaces invoice ${first?.number}.`);
  });
});

describe("the invoice series cannot be inflated", () => {
  it("re-issues each invoice once per change of details, and a few times a day at most", async () => {
    const strict = await startTestServer({ rateLimitScale: 1, seed: false });
    try {
      const { client } = await strict.verifiedAccount("flood@example.de", "secret-password-1");
      await client.call(api.address, { body: { name: "Kim", country: "DE" } });
      await saveSandboxCard(client);
      const bought = await client.call(api.upgrade, {
        body: { product: { code: "wv_unloct17_12m" } },
        idempotencyKey: newKey(),
      });
      if (!bought.ok) throw new Error(bought.body.message);
      const count = async () => {
        const list = await client.call(api.invoiceDocuments, {});
        return list.ok ? list.body.documents.length : -1;
      };
      const save = (organisation: string) =>
        client.call(api.saveBillingDetails, { body: { organisation, reissue: true } });
      const first = await save("Flood GmbH");
      expect(first.ok && first.body.reissued).toHaveLength(1);
      expect(await count()).toBe(3);
      // The same details again re-issue nothing (and, re-issuing nothing, count for nothing).
      for (let i = 0; i < 10; i++) {
        const again = await save("Flood GmbH");
        expect(again.ok && again.body.reissued).toEqual([]);
      }
      expect(await count()).toBe(3);
      // Details changed back and forth: each change re-issues, until the account's allowance
      // for the day is spent; then 429, and neither the details nor the series change.
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++)
        statuses.push((await save(i % 2 === 0 ? "Other GmbH" : "Flood GmbH")).status);
      expect(statuses).toEqual([200, 200, 200, 200, ...Array.from({ length: 16 }, () => 429)]);
      const limited = await save("Third GmbH");
      expect(limited).toMatchObject({ status: 429, body: { error_code: "rate_limited" } });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await count()).toBe(3 + 2 * 4);
      const details = await client.call(api.billingDetails, {});
      expect(details.ok && details.body.organisation).toBe("Flood GmbH");
      // Details without a re-issue are still saved.
      const plain = await client.call(api.saveBillingDetails, { body: { organisation: "Kept" } });
      expect(plain.ok && plain.body.organisation).toBe("Kept");
    } finally {
      await strict.close();
    }
  });

  it("lists every document of the account, a page at a time, newest first", async () => {
    const client = await buyer({
      email: "pages@example.de",
      address: { name: "Kim", country: "DE" },
    });
    await buy(client, "wv_unloct17_12m");
    for (const organisation of ["A GmbH", "B GmbH", "C GmbH"]) {
      const saved = await client.call(api.saveBillingDetails, {
        body: { organisation, reissue: true },
      });
      expect(saved.ok && saved.body.reissued).toHaveLength(1);
    }
    const all = await client.call(api.invoiceDocuments, {});
    if (!all.ok) throw new Error(all.body.message);
    expect(all.body.documents).toHaveLength(7);
    expect(all.body.nextCursor).toBeNull();
    const paged: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await client.call(api.invoiceDocuments, {
        query: { limit: 3, ...(cursor ? { cursor } : {}) },
      });
      if (!page.ok) throw new Error(page.body.message);
      expect(page.body.documents.length).toBeLessThanOrEqual(3);
      paged.push(...page.body.documents.map((d) => d.number));
      if (page.body.nextCursor === null) break;
      cursor = page.body.nextCursor;
    }
    expect(paged).toEqual(all.body.documents.map((d) => d.number));
    const bad = await client.call(api.invoiceDocuments, { query: { cursor: "nope", limit: 3 } });
    expect(bad).toMatchObject({ status: 400, body: { error_code: "invalid_request" } });
    const tooMany = await client.call(api.invoiceDocuments, { query: { limit: 201 } });
    expect(tooMany.status).toBe(400);
  });
});

describe("quotes (spec 2.3 /orders?seats=)", () => {
  it("prices the seats asked for by the seat bands, valid 30 days, as a page and a PDF", async () => {
    const page = await server
      .client()
      .fetch("/orders?seats=2000&organisation=Springfield%20Schools");
    expect(page.status).toBe(200);
    const lines = htmlToLines(await page.text());
    expect(lines).toContain("Prepared for");
    expect(lines).toContain("Springfield Schools");
    expect(lines).toContain("Valid until");
    expect(lines).toContain("14 February 2026");
    const pdf = await server.client().fetch("/orders/quote.pdf?seats=2000");
    expect(pdf.status).toBe(200);
    expect((await extractPdfText(new Uint8Array(await pdf.arrayBuffer()))).join(" ")).toContain(
      "This many seats cannot be bought online",
    );
    const bad = await server.client().fetch("/orders?seats=12");
    expect(bad.status).toBe(400);
  });
});

describe("quote PDFs under a flood", () => {
  it("renders a few at once and sheds the rest with 429 and Retry-After; the same quote is the same bytes", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.client().fetch(`/orders/quote.pdf?seats=${2000 + i}`),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    for (const shed of answers.filter((a) => a.status === 429)) {
      expect(Number(shed.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await shed.json()).toMatchObject({ error_code: "rate_limited" });
    }
    await Promise.all(answers.filter((a) => a.status === 200).map((a) => a.arrayBuffer()));
    // Once the flood is over a quote is rendered again; asked by many at once, it is rendered
    // once and every one of them gets it.
    await expect
      .poll(async () => {
        const answer = await server.client().fetch("/orders/quote.pdf?seats=3000");
        await answer.arrayBuffer();
        return answer.status;
      })
      .toBe(200);
    const same = await Promise.all(
      Array.from({ length: 20 }, () => server.client().fetch("/orders/quote.pdf?seats=3000")),
    );
    expect(same.map((a) => a.status)).toEqual(same.map(() => 200));
    const bodies = await Promise.all(same.map(async (a) => Buffer.from(await a.arrayBuffer())));
    expect(new Set(bodies.map((b) => b.toString("base64"))).size).toBe(1);
    expect((await extractPdfText(new Uint8Array(bodies[0] ?? []))).join(" ")).toContain("3,000");
  });
});
