// Spec 2.3's quote page, /orders?seats=N (issue 23 item 5): the schools plan's price for N seats
// from the seat bands, as a page and as a PDF (/orders/quote.pdf?seats=N), valid 30 days. The
// plans page's seat calculator and the pricing module's "ask us for a quote" messages link here.
import { printableQuote } from "../../domain/invoices/quote-document.ts";
import { seatQuotePrice } from "../../domain/pricing/seat-quote.ts";
import { seatStructureFor } from "../../domain/pricing/seats.ts";
import type { Routes } from "../app.ts";
import type { Ctx } from "../context.ts";
import { escapeHtml, file, html } from "../http/reply.ts";
import { printableHtml } from "../invoices/html.ts";
import { boundedQuotePdfs } from "../invoices/quote-pdfs.ts";
import { sellerParty } from "../services/invoices.ts";
import { rateLimited } from "./helpers.ts";

/** The PDF renderer (pdf-lib and its fonts) loads on the first download, not at start-up. */
const pdfRenderer = () => import("../invoices/pdf.ts");

/** The plan that schools buy by seat bands (spec 5: tiered seat pricing is wv_k12_12m's only). */
const SCHOOLS_PLAN = "wv_k12_12m";

function form(message: string | null, seats: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Ask for a quote</title><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}label{display:block;margin-top:1rem}input{font:inherit;padding:.3rem}button{margin-top:1rem;font:inherit;padding:.4rem 1rem}</style></head><body><main><h1>Ask for a quote</h1><p>A quote for the Schools plan, at the prices of our seat bands, valid for 30 days. Your finance office can raise a purchase order from it.</p>${
    message ? `<p role="alert">${escapeHtml(message)}</p>` : ""
  }<form method="get" action="/orders"><label for="quote-seats">Seats</label><input id="quote-seats" name="seats" inputmode="numeric" required value="${escapeHtml(seats)}"><label for="quote-organisation">School or organisation (optional)</label><input id="quote-organisation" name="organisation" maxlength="200"><button type="submit">Get the quote</button></form></main></body></html>`;
}

function schoolQuoteFor(ctx: Ctx) {
  const seatsText = ctx.url.searchParams.get("seats")?.trim() ?? "";
  const organisation = ctx.url.searchParams.get("organisation")?.trim().slice(0, 200) || null;
  const plan = ctx.app.catalog.plans.find((p) => p.code === SCHOOLS_PLAN);
  const structure = plan ? seatStructureFor(ctx.app.catalog, plan) : null;
  if (!plan || !structure?.ok || structure.value === null) {
    return { ok: false as const, seatsText, message: "Quotes are not available at the moment." };
  }
  if (!/^\d{1,8}$/.test(seatsText)) {
    return {
      ok: false as const,
      seatsText,
      message: seatsText ? "Enter the number of seats as a whole number." : null,
    };
  }
  const priced = seatQuotePrice(structure.value, Number(seatsText));
  if (!priced.ok) return { ok: false as const, seatsText, message: priced.error.message };
  const printable = printableQuote({
    atMs: ctx.now(),
    planName: plan.name,
    termMonths: plan.termDuration,
    price: priced.value,
    seller: sellerParty(ctx.app.config),
    preparedFor: organisation,
  });
  return { ok: true as const, printable, seats: priced.value.seats, organisation };
}

export function quotePageRoutes(routes: Routes): void {
  // This server's renders of quote PDFs, bounded (invoices/quote-pdfs.ts).
  const quotePdf = boundedQuotePdfs(async (printable, meta) =>
    (await pdfRenderer()).printablePdf(printable, meta),
  );
  routes.raw({ method: "GET", path: "/orders" }, async (ctx) => {
    const quote = schoolQuoteFor(ctx);
    if (!quote.ok)
      return html(
        form(quote.message, quote.seatsText),
        quote.message && quote.seatsText ? 400 : 200,
      );
    const query = new URLSearchParams({ seats: String(quote.seats) });
    if (quote.organisation) query.set("organisation", quote.organisation);
    return html(printableHtml(quote.printable, { pdf: `/orders/quote.pdf?${query}`, back: null }));
  });
  routes.raw({ method: "GET", path: "/orders/quote.pdf" }, async (ctx) => {
    // Unauthenticated and costly: limited per client like the other unauthenticated calls.
    await ctx.limit("quotePdfPerIp", ctx.ip);
    const quote = schoolQuoteFor(ctx);
    if (!quote.ok) return html(form(quote.message, quote.seatsText), 400);
    const rendering = quotePdf(quote.printable, { author: ctx.app.config.seller.name });
    if (!rendering) return rateLimited(1);
    const bytes = await rendering;
    return file(
      bytes,
      "application/pdf",
      `${quote.printable.title.replace(/^Quote /, "quote-")}.pdf`,
    );
  });
}
