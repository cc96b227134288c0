// Invoices and credit notes (issue 23): the account's list, each document as a PDF and as an
// HTML page (its owner only), and the buyer's business details with the re-issue they cause.
import { api } from "../../contract/index.ts";
import { INVOICE_DOCUMENTS_PAGE_MAX, type InvoiceDocumentEntry } from "../../contract/invoices.ts";
import { parseDocumentNumber } from "../../domain/invoices/numbering.ts";
import { printableDocument } from "../../domain/invoices/printable.ts";
import { classifyTaxId } from "../../domain/invoices/vat-id.ts";
import type { Routes } from "../app.ts";
import type { Ctx } from "../context.ts";
import { BillingDetailsTable, Invoices, type StoredInvoice } from "../db/invoices.ts";
import { fail, file, html, json } from "../http/reply.ts";
import { printableHtml } from "../invoices/html.ts";
import { lockRefusal, tryWithAccountLock } from "../services/account-lock.ts";
import { numberWaiting } from "../services/invoice-numbering.ts";
import { reissueInvoices, treatmentFor } from "../services/invoices.ts";
import { locationOf } from "../services/location.ts";
import { documentPath } from "../services/receipts.ts";

/** The PDF renderer (pdf-lib and its fonts) loads on the first download, not at start-up. */
const pdfRenderer = () => import("../invoices/pdf.ts");

/** A page's cursor: the last document it listed (issued_at and number, the list's order). */
function cursorOf(doc: StoredInvoice): string {
  return `${doc.issuedAt}_${doc.number}`;
}

function afterCursor(cursor: string | undefined): { issuedAt: number; number: string } | null {
  if (!cursor) return null;
  const at = cursor.indexOf("_");
  return { issuedAt: Number(cursor.slice(0, at)), number: cursor.slice(at + 1) };
}

function entryOf(doc: StoredInvoice): InvoiceDocumentEntry {
  return {
    number: doc.number,
    kind: doc.kind,
    refersTo: doc.refersTo,
    creditedBy: doc.creditedBy,
    orderId: doc.orderId,
    issuedAt: doc.issuedAt,
    total: doc.total,
    pdfUrl: documentPath(doc.number, "pdf"),
    htmlUrl: documentPath(doc.number, "html"),
    billedTo: doc.document.buyer.name,
  };
}

async function detailsAnswer(ctx: Ctx, userId: number, reissued: string[]) {
  const user = await ctx.requireUser();
  const details = await BillingDetailsTable.get(ctx.app.db, userId);
  return {
    organisation: details?.organisation ?? null,
    taxId: details?.taxId ?? null,
    street: details?.street ?? null,
    city: details?.city ?? null,
    reverseCharge: treatmentFor(ctx.app.config, user, details).kind === "reverse_charge",
    reissued,
  };
}

export function invoiceRoutes(routes: Routes): void {
  routes.api(api.invoiceDocuments, async (ctx, { user, query }) => {
    // Numbered on read: an invoice still waiting (its pass failed) gets its number before the
    // list is read, so every charge's invoice is listed (decision 0062).
    await numberWaiting(ctx.app, { userId: user.id });
    // Paged by the last document listed (keyset), so documents issued between two pages move
    // nothing: one more row read tells whether a next page exists.
    const limit = query.limit ?? INVOICE_DOCUMENTS_PAGE_MAX;
    const docs = await Invoices.forUser(ctx.app.db, user.id, limit + 1, afterCursor(query.cursor));
    const page = docs.slice(0, limit);
    const last = page.at(-1);
    return json({
      documents: page.map(entryOf),
      nextCursor: docs.length > limit && last ? cursorOf(last) : null,
    });
  });

  // /api/5/invoices/INV-2026-000001.pdf or .html: one document, for the account it was issued to.
  routes.raw({ method: "GET", path: "/api/5/invoices/:file" }, async (ctx) => {
    const user = await ctx.requireUser();
    const match = /^(.+)\.(pdf|html)$/.exec(ctx.params.file ?? "");
    const number = match?.[1] ?? "";
    if (!match || parseDocumentNumber(number) === null) return fail("not_found");
    const stored = await Invoices.byNumber(ctx.app.db, number);
    // Someone else's number answers as a number that does not exist: nothing tells them apart.
    if (!stored || stored.userId !== user.id) return fail("not_found");
    const printable = printableDocument(stored.document);
    if (match[2] === "pdf") {
      const bytes = await (await pdfRenderer()).printablePdf(printable, {
        author: stored.document.seller.name,
      });
      return file(bytes, "application/pdf", `${number}.pdf`);
    }
    return html(printableHtml(printable, { pdf: documentPath(number, "pdf"), back: "/cart/home" }));
  });

  routes.api(api.billingDetails, async (ctx, { user }) => {
    return json(await detailsAnswer(ctx, user.id, []));
  });

  routes.api(api.saveBillingDetails, async (ctx, { user: caller, body }) => {
    // Each re-issue lengthens the invoice series: a few a day per account (rate-limit.ts). Taken
    // first, so that parallel requests cannot all slip past; given back when nothing was
    // re-issued (refused, busy, or the invoices name the buyer so already).
    const limitKey = String(caller.id);
    if (body.reissue) await ctx.limit("reissuePerUser", limitKey);
    let made = 0;
    try {
      const locked = await tryWithAccountLock(ctx.app, caller.id, async ({ user }) => {
        const country = locationOf(user).countryCode;
        const taxId = body.taxId ? classifyTaxId(body.taxId, country) : null;
        if (taxId && !taxId.ok) return fail("invalid_tax_id", taxId.message);
        const now = ctx.now();
        const reissued = await ctx.app.db.transaction(async (tx) => {
          await BillingDetailsTable.put(tx, {
            userId: user.id,
            organisation: body.organisation ?? null,
            taxId: taxId?.ok ? taxId.taxId : null,
            taxIdCountry: taxId?.ok ? taxId.country : null,
            taxIdValid: taxId?.ok ? taxId.euVat : false,
            street: body.street ?? null,
            city: body.city ?? null,
            updatedAt: now,
          });
          // An invoice already issued is never edited: a credit note and a new invoice (item 3).
          return body.reissue ? reissueInvoices(tx, ctx.app, user, now) : [];
        });
        made = reissued.length;
        return json(await detailsAnswer(ctx, user.id, reissued));
      });
      return locked.locked ? locked.value : fail(lockRefusal(locked.reason));
    } finally {
      if (body.reissue && made === 0) await ctx.app.limiter.give("reissuePerUser", limitKey);
    }
  });
}
