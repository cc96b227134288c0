// The server's side of the price cross-test: the order summary a visitor is quoted
// (POST /api/4/payment/summary), and a real sandbox purchase by a fresh account (each account can
// buy a plan once) with what the sandbox provider charged and what the invoice says
// (GET /api/3/payment/invoices/1).
import { controlVisitorId } from "../../scripts/control-visitor.ts";
import { api } from "../../src/contract/index.ts";
import type { PriceCombination } from "../../src/domain/testing/price-combinations.ts";
import { newKey, type TestClient, type TestServer } from "../../src/server/testing/harness.ts";
import { untilAdmitted } from "../until-admitted.ts";

export type Refusal = { code: string; message: string };

export type SummaryAnswer =
  | { ok: true; total: number; subTotal: number; salesTax: number; seats: number }
  | { ok: false; refusal: Refusal };

export type Purchase =
  | {
      ok: true;
      /** The upgrade call's answer. */
      total: number;
      /** What the sandbox provider charged for this order. */
      charged: number;
      /** GET /api/3/payment/invoices/1: the invoice's price and amount paid. */
      invoicePrice: number;
      invoicePaid: number;
      invoices: number;
      /** The numbered invoice of the order (issue 23): its stored total and its document's. */
      invoiceRow: number;
      invoiceDocument: number;
    }
  | { ok: false; refusal: Refusal };

const body = (c: Pick<PriceCombination, "seats" | "coupon">) => ({
  ...(c.seats === null ? {} : { seats: c.seats }),
  ...(c.coupon === null ? {} : { coupon: c.coupon }),
});

export async function summaryOf(
  client: TestClient,
  c: Pick<PriceCombination, "plan" | "seats" | "coupon">,
): Promise<SummaryAnswer> {
  const answer = await client.call(api.orderSummary, {
    body: { targetProduct: c.plan, ...body(c) },
  });
  if (!answer.ok) {
    return { ok: false, refusal: { code: answer.body.error_code, message: answer.body.message } };
  }
  const { total, subTotal, salesTax, seats } = answer.body;
  return { ok: true, total, subTotal, salesTax, seats };
}

let accounts = 0;

/**
 * A client of the server as the browser of `visitorId` (cookie `vid`). By default a visitor in the
 * control group of every price experiment: the combinations are the default prices, on any date
 * a campaign edge puts the server's clock at, inside an experiment's window or not.
 */
export function visitorClient(server: TestServer, visitorId = controlVisitorId()): TestClient {
  const client = server.client();
  client.remember(new Headers({ "set-cookie": `vid=${visitorId}; Path=/` }));
  return client;
}

/**
 * A new account with a saved sandbox card (4242…), signed in, signed up by the visitor whose
 * browser holds `visitorId` (visitorClient: by default a control visitor).
 */
export async function newBuyer(
  server: TestServer,
  options: { school?: boolean; visitorId?: string } = {},
): Promise<TestClient> {
  accounts += 1;
  const client = visitorClient(server, options.visitorId);
  // The teacher plan is sold only to a verified school address (spec 5), as a teacher would have.
  const email = `cross-${process.pid}-${accounts}@${options.school ? "cross-school.edu" : "example.com"}`;
  // Under load the server sheds password work with a 429 (auth/passwords.ts): asked again later.
  const signUp = await untilAdmitted(
    () =>
      client.call(api.signUp, {
        body: { email, password: "cross-test-password", firstName: "Price", lastName: "Check" },
      }),
    (answer) =>
      answer.ok ? null : { errorCode: answer.body.error_code, message: answer.body.message },
  );
  if (!signUp.ok) throw new Error(`sign-up: ${signUp.body.message}`);
  if (options.school) await verifyEmail(server, client, email);
  const token = await client.call(api.sandboxToken, {
    // An expiry far enough ahead for every campaign edge the catalogue has.
    body: { number: "4242424242424242", expMonth: 12, expYear: 2099, cvc: "123", postalCode: "1" },
  });
  if (!token.ok) throw new Error(`card token: ${token.body.message}`);
  const card = await client.call(api.paymentToken, {
    body: { token: token.body.id },
    idempotencyKey: newKey(),
  });
  if (!card.ok) throw new Error(`saving the card: ${card.body.message}`);
  return client;
}

/**
 * Verifies the address with the code the server mailed, as the activation screen does. The mail
 * is sent after the sign-up answers, so the mailbox is asked until it holds the code: every 10 ms
 * for up to 30 s (it was 200 tries, 2 s in all, which a busy machine can outlast).
 */
async function verifyEmail(server: TestServer, client: TestClient, email: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const answer = await fetch(
      `${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`,
    );
    const mails = (await answer.json()) as { subject: string }[];
    const code = mails
      .map((m) => /^Your verification code: (\d{6})$/.exec(m.subject)?.[1])
      .find(Boolean);
    if (code) {
      const verified = await client.call(api.verifyEmailCode, { body: { code } });
      if (!verified.ok) throw new Error(`verifying ${email}: ${verified.body.message}`);
      return;
    }
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`no verification code was mailed to ${email}`);
}

/** Buys the combination at the price the customer was shown (`expectedTotal`). */
export async function purchase(
  server: TestServer,
  client: TestClient,
  c: Pick<PriceCombination, "plan" | "seats" | "coupon">,
  expectedTotal: number | undefined,
): Promise<Purchase> {
  const answer = await client.call(api.upgrade, {
    body: {
      product: { code: c.plan },
      ...body(c),
      ...(expectedTotal === undefined ? {} : { expectedTotal }),
    },
    idempotencyKey: newKey(),
  });
  if (!answer.ok) {
    return { ok: false, refusal: { code: answer.body.error_code, message: answer.body.message } };
  }
  const charges = await chargesOf(server, answer.body.orderId);
  const invoices = await client.call(api.invoices, { params: { page: 1 } });
  if (!invoices.ok) throw new Error(`invoices: ${invoices.body.message}`);
  const invoice = invoices.body.find((i) => i.orderId === answer.body.orderId);
  if (charges.length !== 1 || invoice === undefined) {
    throw new Error(
      `order ${answer.body.orderId}: ${charges.length} charges, invoice ${invoice ? "found" : "missing"}`,
    );
  }
  // The invoice document (issue 23): the row issued with the order, and the total its page
  // prints ("Total" row of the HTML document, the same text as its PDF).
  const documents = await client.call(api.invoiceDocuments, {});
  if (!documents.ok) throw new Error(`invoice documents: ${documents.body.message}`);
  const numbered = documents.body.documents.find(
    (d) => d.orderId === answer.body.orderId && d.kind === "invoice",
  );
  if (numbered === undefined) throw new Error(`order ${answer.body.orderId}: no numbered invoice`);
  const invoiceDocument = documentTotal(await (await client.fetch(numbered.htmlUrl)).text());
  return {
    ok: true,
    invoiceRow: numbered.total,
    invoiceDocument,
    total: answer.body.total,
    charged: charges[0]?.amount ?? Number.NaN,
    invoicePrice: invoice.price,
    invoicePaid: invoice.amountPaid,
    invoices: invoices.body.length,
  };
}

/** What the sandbox provider charged, successfully, for an order (in cents; one charge). */
export async function chargesOf(
  server: TestServer,
  orderId: number | string,
): Promise<{ amount: number }[]> {
  return server.running.deps.db.all<{ amount: number }>(
    `SELECT c.amount FROM orders o JOIN sandbox_charges c ON c.id = o.charge_ref
     WHERE o.id = ? AND c.error_code IS NULL`,
    [orderId],
  );
}

/** The total an invoice document's page prints ("Total" row), in cents; NaN when it has none. */
export function documentTotal(page: string): number {
  const printed = /<th scope="row">Total<\/th><td class="amount">(-?)\$([\d,]+)\.(\d\d)<\/td>/.exec(
    page,
  );
  return printed
    ? (printed[1] ? -1 : 1) *
        (Number((printed[2] ?? "").replace(/,/g, "")) * 100 + Number(printed[3]))
    : Number.NaN;
}

/** Every successful sandbox charge and every order, to prove a refusal charged nothing. */
export async function ledgerCounts(
  server: TestServer,
): Promise<{ charges: number; orders: number }> {
  const db = server.running.deps.db;
  const charges = await db.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM sandbox_charges WHERE error_code IS NULL",
  );
  const orders = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM orders");
  return { charges: Number(charges?.n ?? 0), orders: Number(orders?.n ?? 0) };
}

/** Runs `work` over `items`, at most `width` at a time, in order of start. */
export async function inPool<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
