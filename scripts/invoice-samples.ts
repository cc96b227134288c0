// Issue 23's "done when", to look at: a local run (sandbox payments, the real catalogue, an empty
// database in a temporary folder) in which a German company with a valid VAT id, a US business in
// California and a private person in France each buy, and each one's invoice is saved as a PDF.
//
//   node scripts/invoice-samples.ts <out-dir>
//   pdftoppm -png -r 60 <out-dir>/de-company.pdf <out-dir>/de-company   (an image of each page)
//
// Needs the generated catalogue (`npm run catalog:build`); no build of the site.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { CallArgs } from "../src/client/call-types.ts";
import { createApiClient } from "../src/client/client.ts";
import type { Endpoint } from "../src/contract/common.ts";
import { api } from "../src/contract/index.ts";
import { startServer } from "../src/server/main.ts";

type Buyer = {
  file: string;
  email: string;
  address: {
    name: string;
    country: string;
    state?: string;
    postalCode: string;
    line1?: string;
    city?: string;
  };
  details?: { organisation: string; taxId?: string; street: string; city: string };
  product: string;
  seats?: number;
};

const BUYERS: Buyer[] = [
  {
    file: "de-company",
    email: "einkauf@beispiel.de",
    address: { name: "Ada Team", country: "DE", postalCode: "10115" },
    details: {
      organisation: "Beispiel GmbH",
      taxId: "DE136695976",
      street: "Hauptstraße 1",
      city: "Berlin",
    },
    product: "wv_unloct17_12m",
  },
  {
    file: "us-ca-business",
    email: "ap@example-studio.com",
    address: { name: "Sam Lee", country: "US", state: "CA", postalCode: "94103" },
    details: {
      organisation: "Example Studio Inc.",
      taxId: "12-3456789",
      street: "1 Market St",
      city: "San Francisco",
    },
    product: "wv_bizoct17_12m",
    seats: 5,
  },
  {
    file: "fr-person",
    email: "camille@example.fr",
    address: {
      name: "Camille Martin",
      line1: "12 rue de Rivoli",
      city: "Paris",
      country: "FR",
      postalCode: "75001",
    },
    product: "wv_single_1m",
  },
];

/** The browser's client with a cookie jar: one signed-in customer. */
function customer(base: string) {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return response;
  };
  const client = createApiClient({ baseUrl: base, version: "invoice-samples", fetch: send });
  return {
    send,
    async call<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>) {
      const result = await client.call(endpoint, ...args);
      if (!result.ok) throw new Error(`${endpoint.path}: ${result.error.message}`);
      return result.value;
    },
  };
}

async function buyAndSave(base: string, buyer: Buyer, outDir: string): Promise<string> {
  const c = customer(base);
  await c.call(api.signUp, {
    body: { email: buyer.email, password: "secret-password-1", firstName: "Ada", lastName: "Team" },
  });
  await c.call(api.address, { body: buyer.address });
  if (buyer.details) await c.call(api.saveBillingDetails, { body: buyer.details });
  const token = await c.call(api.sandboxToken, {
    body: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123", postalCode: "1" },
  });
  await c.call(api.paymentToken, { body: { token: token.id }, idempotencyKey: randomUUID() });
  const seats = buyer.seats ? { seats: buyer.seats } : {};
  const summary = await c.call(api.orderSummary, {
    body: { targetProduct: buyer.product, ...seats },
  });
  await c.call(api.upgrade, {
    body: { product: { code: buyer.product }, ...seats, expectedTotal: summary.total },
    idempotencyKey: randomUUID(),
  });
  const { documents } = await c.call(api.invoiceDocuments);
  const [invoice] = documents;
  if (!invoice) throw new Error(`${buyer.email}: no invoice after the purchase`);
  const pdf = await c.send(`${base}${invoice.pdfUrl}`);
  if (pdf.status !== 200) throw new Error(`${invoice.pdfUrl}: ${pdf.status}`);
  const path = join(outDir, `${buyer.file}.pdf`);
  writeFileSync(path, new Uint8Array(await pdf.arrayBuffer()));
  return `${path}: ${invoice.number}, ${(invoice.total / 100).toFixed(2)} USD`;
}

const outArg = process.argv[2];
if (!outArg) {
  console.error("usage: node scripts/invoice-samples.ts <out-dir>");
  process.exit(2);
}
const outDir = resolve(outArg);
mkdirSync(outDir, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), "invoice-samples-"));
const server = await startServer({
  port: 0,
  host: "127.0.0.1",
  env: { DATA_DIR: dataDir, PAYMENTS: "sandbox", SEED: "false" },
});
try {
  for (const buyer of BUYERS) console.log(await buyAndSave(server.url, buyer, outDir));
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
