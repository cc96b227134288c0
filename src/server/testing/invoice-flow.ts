// What the services/invoices-*.test.ts files share (issue 23): a server, buyers, their purchases,
// and what they were issued (invoices, receipts, PDFs and pages).
import { afterAll, beforeAll, expect } from "vitest";
import { api } from "../../contract/index.ts";
import { Invoices } from "../db/invoices.ts";
import { Outbox } from "../db/outbox.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "./harness.ts";
import { extractPdfText } from "./pdf-text.ts";
import { saveSandboxCard } from "./sandbox-cards.ts";

export let server: TestServer;

type Buyer = {
  email: string;
  address: { name: string; country: string; state?: string; postalCode?: string };
  details?: { organisation: string; taxId?: string; street?: string; city?: string };
};

export async function buyer(who: Buyer): Promise<TestClient> {
  const { client } = await server.verifiedAccount(who.email, "secret-password-1");
  const address = await client.call(api.address, { body: who.address });
  if (!address.ok) throw new Error(address.body.message);
  if (who.details) {
    const saved = await client.call(api.saveBillingDetails, { body: who.details });
    if (!saved.ok) throw new Error(saved.body.message);
  }
  const card = await saveSandboxCard(client);
  if (!card.ok) throw new Error(card.body.message);
  return client;
}

/** A server of its own whose renewals run when its clock moves: its invoice numbers start at 1. */
export async function withRenewingServer(
  test: (renewing: TestServer) => Promise<void>,
): Promise<void> {
  const renewing = await startTestServer({
    seed: false,
    env: { CLOCK: "settable" },
    renewals: { intervalMs: 0 },
  });
  try {
    await test(renewing);
  } finally {
    await renewing.close();
  }
}

/** The paying card saved, then Power monthly bought (renewed a month later). */
export async function subscribeMonthly(client: TestClient) {
  await saveSandboxCard(client);
  const bought = await client.call(api.upgrade, {
    body: { product: { code: "wv_single_1m" } },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return bought.body;
}

export async function buy(client: TestClient, targetProduct: string, seats?: number) {
  const summary = await client.call(api.orderSummary, {
    body: { targetProduct, ...(seats ? { seats } : {}) },
  });
  if (!summary.ok) throw new Error(summary.body.message);
  const bought = await client.call(api.upgrade, {
    body: {
      product: { code: targetProduct },
      ...(seats ? { seats } : {}),
      expectedTotal: summary.body.total,
    },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return { summary: summary.body, order: bought.body };
}

export async function documentsOf(client: TestClient) {
  const list = await client.call(api.invoiceDocuments, {});
  if (!list.ok) throw new Error(list.body.message);
  return list.body.documents;
}

export async function receiptsTo(email: string) {
  return (await Outbox.latest(server.running.deps.db, 50, email)).filter(
    (m) => m.subject.startsWith("Receipt") || m.subject.startsWith("Refund receipt"),
  );
}

/** Everything a buyer and their finance office get for their one purchase. */
export async function issuedTo(client: TestClient, email: string) {
  const [entry, ...more] = await documentsOf(client);
  if (!entry || more.length > 0) throw new Error("expected one document");
  const doc = (await Invoices.byNumber(server.running.deps.db, entry.number))?.document;
  const pdf = await client.fetch(entry.pdfUrl);
  expect(pdf.headers.get("content-type")).toBe("application/pdf");
  const pdfText = await extractPdfText(new Uint8Array(await pdf.arrayBuffer()));
  const htmlText = htmlToLines(await (await client.fetch(entry.htmlUrl)).text());
  const receipts = await receiptsTo(email);
  expect(receipts).toHaveLength(1);
  return { entry, doc, pdfText, htmlText, receipt: receipts[0] };
}

/** The PDF says, word for word, what the page says (less the page's two links). */
export function expectSameText(pdfText: string[], htmlText: string[]) {
  const words = (lines: string[]) => lines.join(" ").replace(/\s+/g, " ");
  expect(words(pdfText)).toBe(
    words(htmlText.filter((l) => !["Download the PDF", "Back to your account", "·"].includes(l))),
  );
}

/** `run` appears in `text` in this order, one after the other (a table's row, a block). */
export function expectRun(text: string[], run: string[]) {
  expect(text.join("\n")).toContain(run.join("\n"));
}

/** Cents as the receipts write them: 1199 → "$11.99". */
export const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The text nodes of an HTML page's body, in order (what a reader or a screen reader meets). */
export function htmlToLines(page: string): string[] {
  const body = page.replace(/^[\s\S]*<body>/, "").replace(/<\/body>[\s\S]*$/, "");
  return body
    .split(/<[^>]+>/)
    .map((t) =>
      t
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .trim(),
    )
    .filter((t) => t.length > 0);
}

/** Starts the server the invoice tests share before a file's tests, and closes it after them. */
export function startsInvoiceServer(): void {
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });
}
