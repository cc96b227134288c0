// What the completed page says first, for each kind of purchase (issue 34, item 4): a plan (what
// was bought and paid), seats added ("You added 2 seats: your team now has 7. Paid $257.45 for the
// rest of this year"), an add-on, a single export (the credit is ready), Flex (valid until). Pure
// wording over the last invoice (domain/account/invoice.ts); the next renewal and the receipt are
// lines of their own. Flex's and Essentials' words are issue 33's: kept here, in one place.

import { formatDay } from "../account/cancellation.ts";
import type { InvoiceSummary } from "../account/invoice.ts";
import { formatUsd } from "../pricing/money.ts";
import { termLabel, termMonthsFromCode } from "../pricing/terms.ts";

export type PurchaseKind = "plan" | "seats" | "add-on" | "single-export" | "flex";

export function purchaseKind(summary: InvoiceSummary): PurchaseKind {
  if (summary.productCode.startsWith("single_export")) return "single-export";
  if (summary.hasFlex) return "flex";
  const before = summary.previous;
  if (before && before.productCode === summary.productCode && summary.seats > before.seats) {
    return "seats";
  }
  if (
    before &&
    before.productCode !== summary.productCode &&
    summary.productCode.includes("_plus_")
  ) {
    return "add-on";
  }
  return "plan";
}

/** The page's first sentence, naming what was bought and what was paid. */
export function completedHeadline(summary: InvoiceSummary): string {
  const paid = formatUsd(summary.amountPaid);
  const rest = `the rest of this ${termLabel(termMonthsFromCode(summary.productCode))}`;
  switch (purchaseKind(summary)) {
    case "single-export":
      return `Your export credit is ready: paid ${paid}. Open the editor and export your video.`;
    case "flex": {
      const until = formatDay(summary.orderEndDate);
      return `Thank you! You paid ${paid} for ${summary.productName}, valid until ${until}. It does not renew.`;
    }
    case "seats": {
      const added = summary.seats - (summary.previous?.seats ?? summary.seats);
      return `You added ${added} ${added === 1 ? "seat" : "seats"}: your team now has ${summary.seats}. Paid ${paid} for ${rest}.`;
    }
    case "add-on":
      return `You added Essentials to your plan (${summary.productName}). Paid ${paid} for ${rest}.`;
    case "plan":
      return `Thank you! You paid ${paid} for ${summary.productName}.`;
  }
}

/** Where the receipt went and whom the invoice is made out to (the invoice's own buyer). */
export function receiptLine(facts: {
  invoiceNumber: string;
  email: string;
  billedTo: string | null;
}): string {
  const to = facts.billedTo
    ? ` Invoice ${facts.invoiceNumber} is made out to ${facts.billedTo}.`
    : ` Your invoice is ${facts.invoiceNumber}.`;
  return `We sent the receipt to ${facts.email}.${to}`;
}
