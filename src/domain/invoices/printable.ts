// The words and figures of an invoice, a credit note or a quote, in reading order: the one text
// that both the HTML page and the PDF lay out (src/server/invoices/), so the two say the same
// thing, which a test checks by extracting the PDF's text.
import { formatUsd } from "../pricing/money.ts";
import type { InvoiceDocument, Party } from "./document.ts";

export type Block =
  | { kind: "party"; heading: string; lines: string[] }
  | { kind: "facts"; rows: [string, string][] }
  | { kind: "lines"; heading: string; columns: [string, string]; rows: [string, string][] }
  | {
      kind: "taxes";
      heading: string;
      columns: [string, string, string, string];
      rows: [string, string, string, string][];
    }
  | { kind: "totals"; rows: [string, string][] }
  | { kind: "notes"; lines: string[] };

export type Printable = { title: string; blocks: Block[] };

const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });
export const formatDate = (ms: number): string => day.format(new Date(ms));

/** 7.25 → "7.25 %", 20 → "20 %". */
const formatRate = (percent: number): string => `${percent} %`;

const COUNTRY_NAMES: Record<string, string> = {
  AT: "Austria",
  BE: "Belgium",
  BG: "Bulgaria",
  HR: "Croatia",
  CY: "Cyprus",
  CZ: "Czechia",
  DK: "Denmark",
  EE: "Estonia",
  FI: "Finland",
  FR: "France",
  DE: "Germany",
  GR: "Greece",
  HU: "Hungary",
  IE: "Ireland",
  IT: "Italy",
  LV: "Latvia",
  LT: "Lithuania",
  LU: "Luxembourg",
  MT: "Malta",
  NL: "Netherlands",
  PL: "Poland",
  PT: "Portugal",
  RO: "Romania",
  SK: "Slovakia",
  SI: "Slovenia",
  ES: "Spain",
  SE: "Sweden",
  GB: "United Kingdom",
  NO: "Norway",
  CH: "Switzerland",
  US: "United States",
  CA: "Canada",
  AU: "Australia",
  NZ: "New Zealand",
  JP: "Japan",
};

export const countryName = (code: string): string => COUNTRY_NAMES[code.toUpperCase()] ?? code;

function partyLines(party: Party, taxIdLabel: string): string[] {
  return [
    party.name,
    ...(party.contact ? [`Attn. ${party.contact}`] : []),
    ...party.address,
    countryName(party.country),
    ...(party.taxId ? [`${taxIdLabel}: ${party.taxId}`] : []),
    ...(party.email ? [party.email] : []),
  ];
}

export function printableDocument(doc: InvoiceDocument): Printable {
  const credit = doc.kind === "credit_note";
  const facts: [string, string][] = [
    [credit ? "Credit note number" : "Invoice number", doc.number],
    ...(doc.refersTo ? ([["Credits invoice", doc.refersTo]] as [string, string][]) : []),
    ["Issue date", formatDate(doc.issuedAt)],
    ...(doc.servicePeriod
      ? ([
          [
            "Service period",
            `${formatDate(doc.servicePeriod.start)} to ${formatDate(doc.servicePeriod.end)}`,
          ],
        ] as [string, string][])
      : []),
    ["Order", doc.orderId],
    ["Payment method", doc.paymentMethod],
  ];
  return {
    title: credit ? `Credit note ${doc.number}` : `Invoice ${doc.number}`,
    blocks: [
      { kind: "party", heading: "Seller", lines: partyLines(doc.seller, "VAT id") },
      { kind: "party", heading: "Bill to", lines: partyLines(doc.buyer, "Tax id") },
      { kind: "facts", rows: facts },
      {
        kind: "lines",
        heading: "Items",
        columns: ["Description", "Amount"],
        rows: doc.lines.map((line) => [line.label, formatUsd(line.amount)]),
      },
      {
        kind: "taxes",
        heading: "Tax by rate",
        columns: ["Tax", "Rate", "Taxable amount", "Tax amount"],
        rows: doc.taxes.map((t) => [
          t.label,
          formatRate(t.ratePercent),
          formatUsd(t.taxable),
          formatUsd(t.tax),
        ]),
      },
      {
        kind: "totals",
        rows: [
          ["Subtotal", formatUsd(doc.subTotal)],
          ["Tax", formatUsd(doc.taxTotal)],
          [credit ? "Total credited" : "Total", formatUsd(doc.total)],
          [credit ? "Amount refunded" : "Amount paid", formatUsd(Math.abs(doc.amountPaid))],
        ],
      },
      { kind: "notes", lines: [...doc.notes, "All amounts in US dollars."] },
    ],
  };
}

/** Every string of a printable, in reading order: what a reader (or a PDF text layer) finds. */
export function printableText(p: Printable): string[] {
  const out = [p.title];
  for (const block of p.blocks) {
    if (block.kind === "party") out.push(block.heading, ...block.lines);
    else if (block.kind === "facts" || block.kind === "totals")
      for (const row of block.rows) out.push(...row);
    else if (block.kind === "lines" || block.kind === "taxes") {
      out.push(block.heading, ...block.columns);
      for (const row of block.rows) out.push(...row);
    } else out.push(...block.lines);
  }
  return out;
}
