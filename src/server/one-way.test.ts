// One way per thing in the server (issue 35, item 3), read off the sources: a handler refuses in
// one way, the purchase body has one type (the contract's), pricing and eligibility live in a
// service, one name per concept, provider adapters never call up into services, and the modules
// split by responsibility stay under the 400-line rule.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => join(folder, f));
}

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** Files of `folder` whose text matches `pattern`. */
function matching(folder: string, pattern: RegExp): string[] {
  return sources(folder).filter((f) => pattern.test(read(f)));
}

describe("one way per thing in the server", () => {
  it("a handler refuses one way: it returns fail(...), never throws or builds an error outcome", () => {
    expect(
      matching("server/handlers", /new HttpError|errorOutcome|fromApiError|throw tooManyAttempts/),
    ).toEqual([]);
    expect(read("server/http/reply.ts")).not.toMatch(
      /export (function (httpError|fromApiError)|class HttpError)/,
    );
    // HttpError is the framework layer's (http/http-error.ts): services answer results instead.
    expect(
      [...sources("server/handlers"), ...sources("server/services")].filter((f) =>
        /HttpError|http-error\.ts/.test(read(f)),
      ),
    ).toEqual([]);
    expect(read("server/routing.ts")).not.toMatch(/export function errorOutcome/);
  });

  it("the purchase body has one type, the contract's, used by the server and the stores", () => {
    const declared = [...sources("server"), ...sources("stores"), ...sources("client")].filter(
      (f) => /type (PurchaseRequest|PurchaseInput|UpgradeRequest) = \{/.test(read(f)),
    );
    expect(declared).toEqual([]);
    expect(read("stores/payment.ts")).toMatch(/PurchaseInput = Omit<PurchaseBody/);
    expect(read("server/services/purchase.ts")).toMatch(/PurchaseTerms = Pick<\s*Purchase,/);
  });

  it("the billing details and the sandbox card bodies are the contract's types, not copies", () => {
    const copies = [...sources("stores"), ...sources("islands"), ...sources("client")].filter((f) =>
      /type (BillingDetailsInput|SandboxCard) = \{/.test(read(f)),
    );
    expect(copies).toEqual([]);
    expect(read("contract/invoices.ts")).toMatch(/BillingDetailsBody = z\.input</);
    expect(read("contract/payment.ts")).toMatch(/SandboxCard = z\.input</);
  });

  it("purchase pricing and eligibility are a service's, and no handler imports another", () => {
    expect(read("server/services/purchase.ts")).toMatch(/export function pricePurchase/);
    const imports = sources("server/handlers").filter(
      (f) => !f.endsWith("index.ts") && /from "\.\/(?!helpers\.ts)[^"]+"/.test(read(f)),
    );
    expect(imports).toEqual([]);
  });

  it("Quote is the pricing module's only: the server's pricing and the school quote have their own names", () => {
    expect(matching("server", /export type Quote\b|function quoteFor\b|approvedQuote/)).toEqual([]);
  });

  it("provider adapters do not call up into services", () => {
    expect(matching("server/payments", /from "\.\.\/services\//)).toEqual([]);
  });

  it("the modules split by responsibility are at most 400 lines", () => {
    const files = [
      "server/handlers/payments.ts",
      "server/handlers/subscription.ts",
      "server/handlers/paypal.ts",
      "server/services/renewals.ts",
      "server/payments/stripe.ts",
      "server/services/paypal-webhooks.ts",
      "server/services/orders.ts",
    ];
    const long = files.filter((f) => read(f).split("\n").length > 400);
    expect(long).toEqual([]);
  });
});
