// `catalog quote` on the shipped catalogue gives every display price of spec section 9.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { diskFs, memoryFs } from "../core/catalog-fs.ts";
import { memoryIo } from "../core/output.ts";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { formatQuote, parseAt, type QuoteOptions, quotePlan } from "./quote.ts";

const dir = fileURLToPath(new URL("../../catalog", import.meta.url));
const now = () => Date.UTC(2026, 0, 15);

async function quoted(options: Omit<QuoteOptions, "dir">) {
  const report = await quotePlan({ dir, ...options }, { fs: diskFs, now });
  if (!report.ok)
    throw new Error("error" in report ? report.error.message : report.issues[0]?.message);
  return { quote: report.quote, text: await formatQuote(report.quote, memoryIo()) };
}

const price = async (plan: string, extra: Omit<QuoteOptions, "dir" | "plan"> = {}) => {
  const { text } = await quoted({ plan, ...extra });
  const row = (label: string) =>
    text
      .split("\n")
      .find((line) => line.startsWith(label))
      ?.slice(label.length)
      .trim();
  return {
    price: row("price"),
    monthly: row("monthly equivalent"),
    extraSeat: row("extra seat"),
    total: row("total"),
  };
};

describe("catalog quote: spec section 9 display prices", () => {
  it.each([
    ["wv_single_1m", "9.99 per month", "9.99/month"],
    ["wv_single_12m", "59.88 per year", "4.99/month"],
    ["wv_single_plus_1m", "29.98 per month", "29.98/month"],
    ["wv_single_plus_12m", "179.76 per year", "14.98/month"],
    ["wv_unloct17_1m", "15.99 per month", "15.99/month"],
    ["wv_unloct17_12m", "95.88 per year", "7.99/month"],
    ["wv_unloct17_plus_1m", "35.98 per month", "35.98/month"],
    ["wv_unloct17_plus_12m", "215.76 per year", "17.98/month"],
    ["wv_bizindiv_1m", "39.99 per month", "39.99/month"],
    ["wv_bizindiv_12m", "239.88 per year", "19.99/month"],
    ["wv_bizoct17_1m", "73.99 per month", "73.99/month"],
    ["wv_bizoct17_12m", "443.88 per year", "36.99/month"],
    ["wv_flex2", "29.99", "2.50/month"],
  ])("%s costs %s (%s)", async (plan, expectedPrice, expectedMonthly) => {
    const result = await price(plan);
    expect(result.price).toBe(expectedPrice);
    expect(result.monthly).toBe(expectedMonthly);
  });

  it("prices the sample catalogue's Professional and Business through the price group", async () => {
    expect(await price("wv_bizindiv_1m", { priceGroup: "sample" })).toMatchObject({
      price: "35.99 per month",
    });
    expect(await price("wv_bizindiv_12m", { priceGroup: "sample" })).toMatchObject({
      price: "215.88 per year",
    });
    expect(await price("wv_bizoct17_1m", { priceGroup: "sample" })).toMatchObject({
      price: "59.99 per month",
      extraSeat: "39.99 per month (39.99/month)",
    });
    expect(await price("wv_bizoct17_12m", { priceGroup: "sample" })).toMatchObject({
      price: "359.88 per year",
      extraSeat: "239.88 per year (19.99/month)",
    });
  });

  it("prices Business with 3 seats included and extra seats on top", async () => {
    const { quote, text } = await quoted({ plan: "wv_bizoct17_12m", seats: "5" });
    expect(quote).toMatchObject({
      includedSeats: 3,
      extraSeats: 2,
      extraSeatPrice: 23988,
      total: 44388 + 2 * 23988,
    });
    expect(text).toMatchInlineSnapshot(`
      "plan                Business (billed annually) wv_bizoct17_12m
      price               443.88 per year
      monthly equivalent  36.99/month
      seats               5 (3 included, 2 extra)
      extra seat          239.88 per year (19.99/month)

      Business (billed annually)  443.88
      2 extra seats × $239.88     479.76
      total                       923.64"
    `);
  });

  it("prices Schools: 374 for 30 seats by default, 299 in the older structure", async () => {
    expect(await price("wv_k12_12m", { seats: "30" })).toMatchObject({
      price: "374.00 per year",
      total: "374.00",
    });
    expect(await price("wv_k12_12m", { seats: "30", seatStructure: "k12-pre-2024" })).toMatchObject(
      {
        price: "299.00 per year",
      },
    );
  });

  it("prices the sample's school seats at 4.99", async () => {
    expect(await price("wv_k12_6m", { seats: "31" })).toMatchObject({
      extraSeat: "4.99 per 6 months (0.83/month)",
    });
  });

  it("shows a campaign's discount inside its window", async () => {
    const { text } = await quoted({
      plan: "wv_single_12m",
      coupon: "blackfriday2019",
      at: "2019-11-30T12:00:00Z",
    });
    expect(text).toMatchInlineSnapshot(`
      "plan                Power (billed annually) wv_single_12m
      price               59.88 per year
      monthly equivalent  4.99/month
      seats               1
      campaign            Black Friday 2019 (coupon blackfriday2019): 23.95 off, 35.93 per year (2.99/month)

      Power (billed annually)                   59.88
      Black Friday 2019 discount (first year)  -23.95
      total                                     35.93"
    `);
  });
});

describe("catalog quote: errors", () => {
  const fail = async (options: Omit<QuoteOptions, "dir">) => {
    const report = await quotePlan({ dir, ...options }, { fs: diskFs, now });
    return !report.ok && "error" in report ? report.error.message : report;
  };

  it("explains each refusal", async () => {
    expect(
      await Promise.all([
        fail({ plan: "wv_nope_12m" }),
        fail({ plan: "wv_k12_12m", seats: "10" }),
        fail({ plan: "wv_single_12m", seats: "2.5" }),
        fail({ plan: "wv_single_12m", seats: "many" }),
        fail({ plan: "wv_single_12m", coupon: "blackfriday2019" }),
        fail({ plan: "wv_single_12m", at: "next friday" }),
        fail({}),
        // What cli/main.test.ts spawned Node for, one process each.
        fail({ plan: "wv_single_12m", seats: "1.5" }),
        fail({ plan: "wv_single_12m", at: "yesterday" }),
        fail({ plan: "wv_unknown" }),
      ]),
    ).toMatchInlineSnapshot(`
      [
        "Unknown plan 'wv_nope_12m'.",
        "Schools needs at least 30 seats; you asked for 10.",
        "--seats must be a whole number of seats, found "2.5"",
        "--seats must be a whole number of seats, found "many"",
        "Coupon 'blackfriday2019' has expired. Remove it to see the regular price.",
        "--at must be an ISO date such as 2026-11-27 or 2026-11-27T05:00:00Z, found "next friday"",
        "name a plan: catalog quote --plan wv_single_12m (a code, or a family id such as power)",
        "--seats must be a whole number of seats, found "1.5"",
        "--at must be an ISO date such as 2026-11-27 or 2026-11-27T05:00:00Z, found "yesterday"",
        "Unknown plan 'wv_unknown'.",
      ]
    `);
  });

  it("names each refusal with the API's error code, as the server answers it", async () => {
    const codes = async (options: Omit<QuoteOptions, "dir">) => {
      const report = await quotePlan({ dir, ...options }, { fs: diskFs, now });
      return !report.ok && "error" in report ? report.error.code : report;
    };
    expect(
      await Promise.all([
        codes({ plan: "wv_nope_12m" }),
        codes({ plan: "wv_k12_12m", seats: "10" }),
        codes({ plan: "wv_single_12m", coupon: "blackfriday2019" }),
        codes({ plan: "wv_single_12m", seats: "many" }),
      ]),
    ).toEqual(["unknown_product", "invalid_seats", "coupon_not_active", "invalid_request"]);
  });

  it("reports an invalid catalogue instead of quoting from it", async () => {
    const fs = memoryFs(catalogTexts({}, { "exports.yaml": "maxExportMs: 0\n" }));
    const report = await quotePlan({ dir: "catalog", plan: "wv_single_12m" }, { fs, now });
    expect(report.ok || "issues" in report).toBe(true);
  });
});

describe("catalog quote: a coupon for other plans", () => {
  it("prices the plan without it and says why, as the checkout does (issue 18, item 10)", async () => {
    const report = await quotePlan(
      { dir, plan: "wv_teacher_12m", coupon: "blackfriday2019", at: "2019-11-30" },
      { fs: diskFs, now },
    );
    expect(report.ok && report.quote.campaign).toBeNull();
    expect(report.ok && report.quote.coupon).toEqual({
      code: "blackfriday2019",
      applied: false,
      note: "Coupon 'blackfriday2019' does not apply to Teacher (billed annually), so it is not applied.",
    });
  });
});

describe("catalog quote: a caller's catalogue loader", () => {
  it("quotes from the catalogue the loader returns, read once for many quotes", async () => {
    const { loadCatalog } = await import("../core/load-catalog.ts");
    let calls = 0;
    let parses = 0;
    let loaded: ReturnType<typeof loadCatalog> | undefined;
    const load: typeof loadCatalog = (fs, folder) => {
      calls += 1;
      if (loaded === undefined) {
        parses += 1;
        loaded = loadCatalog(fs, folder);
      }
      return loaded;
    };
    const totals = [];
    for (const seats of ["30", "31", "100"]) {
      const report = await quotePlan({ dir, plan: "wv_k12_12m", seats }, { fs: diskFs, now, load });
      totals.push(report.ok ? report.quote.total : report);
    }
    expect(totals).toEqual([37400, 37400 + 1199, 37400 + 70 * 1199]);
    expect({ calls, parses }).toEqual({ calls: 3, parses: 1 });
  });
});

describe("parseAt", () => {
  it("reads ISO dates and date-times with a zone", () => {
    expect(parseAt("2026-11-27")).toBe(Date.UTC(2026, 10, 27));
    expect(parseAt("2026-11-27T05:00:00Z")).toBe(Date.UTC(2026, 10, 27, 5));
    expect(parseAt("2026-11-27T00:00-05:00")).toBe(Date.UTC(2026, 10, 27, 5));
    expect(parseAt("2026-11-27T05:00:00")).toBeUndefined();
    expect(parseAt("2026-13-45")).toBeUndefined();
  });
});
