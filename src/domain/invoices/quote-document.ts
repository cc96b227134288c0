// A quote for a schools licence (issue 23 item 5; spec 2.3 /orders?seats=): for a school that
// needs more seats than an online order has, or whose finance office asks for a quote before it
// raises a purchase order. The prices are the seat bands' (pricing/seat-quote.ts); it is valid 30
// days. A quote is no tax document: it takes no invoice number, and tax is added when invoiced.
import { formatUsd } from "../pricing/money.ts";
import type { SeatQuotePrice } from "../pricing/seat-quote.ts";
import type { Party } from "./document.ts";
import { countryName, formatDate, type Printable } from "./printable.ts";

const QUOTE_VALID_DAYS = 30;
const DAY_MS = 86_400_000;

export type QuoteFacts = {
  atMs: number;
  planName: string;
  termMonths: number;
  price: SeatQuotePrice;
  seller: Party;
  /** Who asked: an organisation's name, when given. */
  preparedFor: string | null;
};

/** Q-20260115-0045: the date and the seats (the same request on one day is the same quote). */
function quoteNumber(atMs: number, seats: number): string {
  const d = new Date(atMs);
  const ymd = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}${String(d.getUTCDate()).padStart(2, "0")}`;
  return `Q-${ymd}-${String(seats).padStart(4, "0")}`;
}

function quoteValidUntil(atMs: number): number {
  return atMs + QUOTE_VALID_DAYS * DAY_MS;
}

export function printableQuote(q: QuoteFacts): Printable {
  const number = quoteNumber(q.atMs, q.price.seats);
  const seller = q.seller;
  return {
    title: `Quote ${number}`,
    blocks: [
      {
        kind: "party",
        heading: "From",
        lines: [
          seller.name,
          ...seller.address,
          countryName(seller.country),
          ...(seller.taxId ? [`VAT id: ${seller.taxId}`] : []),
        ],
      },
      { kind: "party", heading: "Prepared for", lines: [q.preparedFor ?? "Your school"] },
      {
        kind: "facts",
        rows: [
          ["Quote number", number],
          ["Date", formatDate(q.atMs)],
          ["Valid until", formatDate(quoteValidUntil(q.atMs))],
          ["Plan", `${q.planName}, ${q.termMonths} months`],
          ["Seats", q.price.seats.toLocaleString("en-US")],
        ],
      },
      {
        kind: "lines",
        heading: "Seats",
        columns: ["Description", "Amount"],
        rows: q.price.lines.map((line) => [line.label, formatUsd(line.amount)]),
      },
      {
        kind: "totals",
        rows: [["Total before tax", formatUsd(q.price.total)]],
      },
      {
        kind: "notes",
        lines: [
          "Tax is added on the invoice at the rate of the billing address (none for an EU school with a valid VAT id in another member state: reverse charge).",
          `To order, send a purchase order that names quote ${number} before ${formatDate(quoteValidUntil(q.atMs))}.`,
          ...(q.price.aboveOnlineLimit
            ? ["This many seats cannot be bought online: the quote is the way to order them."]
            : []),
          "All amounts in US dollars.",
        ],
      },
    ],
  };
}
