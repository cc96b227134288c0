// PayPal. In sandbox mode the approval happens on a local page that stands in for PayPal's: the
// subscription call prices the order and answers with that page's address; approving it there
// writes the order (once) and sends the customer back to the return address.
import { z } from "zod";
import { api } from "../../api/contract/index.ts";
import { safeRedirectPath } from "../../domain/account/redirects.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import { formatUsd } from "../../domain/pricing/index.ts";
import { randomId } from "../auth/tokens.ts";
import { PaypalApprovals } from "../db/ledger.ts";
import { Users } from "../db/users.ts";
import { escapeHtml, fail, HttpError, html, redirect } from "../http/reply.ts";
import { errorOutcome, type Routes } from "../routing.ts";
import { loadAccount } from "../services/account.ts";
import { withAccountLock } from "../services/account-lock.ts";
import { applyOrder, buildOrder } from "../services/orders.ts";
import { quoteFor } from "../services/quotes.ts";

import { pricePurchase } from "./payments.ts";

export const PAYPAL_APPROVAL_PATH = "/dev/paypal/approve";

/** The approval page's form: which approval, and the button pressed (anything else approves). */
const ApprovalForm = z
  .object({ id: z.string().max(64).optional(), action: z.unknown().optional() })
  .optional();

/**
 * Where an approval returns when its stored return address does not pass the allow-list (a row
 * written before the address was checked this strictly): the checkout's PayPal result page.
 */
export const PAYPAL_RETURN_FALLBACK = "/cart#paypalCompleted";

function withParams(path: string, params: Record<string, string>): string {
  const hashAt = path.indexOf("#");
  const base = hashAt < 0 ? path : path.slice(0, hashAt);
  const hash = hashAt < 0 ? "" : path.slice(hashAt);
  const separator = base.includes("?") ? "&" : "?";
  return `${base}${separator}${new URLSearchParams(params)}${hash}`;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.box{border:1px solid #c8c8c8;border-radius:8px;padding:1rem 1.25rem}.note{color:#555;font-size:.9rem}
button{font:inherit;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;background:#fff}
button.primary{background:#0b4ea2;color:#fff;border-color:#0b4ea2}</style></head><body>${body}</body></html>`;

export function paypalRoutes(routes: Routes): void {
  routes.api(api.paypalSubscription, async (ctx, { user, body }) => {
    // The sandbox's approval stand-in is under /dev/: a local request's only (local-run.ts).
    if (ctx.app.config.payments !== "sandbox" || !ctx.isLocalRequest)
      return errorOutcome(apiError("paypal_unavailable"));
    // Checked before anything is priced or written: only a page of this site is stored.
    const returnUrl = safeRedirectPath(body.href, ctx.app.config.publicBaseUrl);
    if (returnUrl === null) return errorOutcome(apiError("invalid_return_url"));
    const account = await loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
    const { code, quote } = pricePurchase(ctx, account, body);
    // A downgrade charges nothing now (payments.ts schedules it through the upgrade call).
    if (quote.change === "downgrade") return errorOutcome(apiError("downgrade_needs_no_payment"));
    const plan = ctx.app.catalog.plans.find((p) => p.code === code);
    const id = randomId("PAYID", 12);
    const answer = {
      success: true as const,
      approvalId: id,
      approvalUrl: `${PAYPAL_APPROVAL_PATH}?${new URLSearchParams({ id })}`,
      paypal: {
        totalAmount: quote.summary.total,
        productCode: code,
        productName: plan?.name ?? code,
        tier: account.tier,
        hasPaypalPayment: true,
        isCCRequiredTrial: false,
        planIsTrial: plan?.isTrial ?? false,
      },
    };
    return {
      status: 200,
      body: answer,
      commit: (tx) =>
        PaypalApprovals.insert(tx, {
          id,
          userId: user.id,
          productCode: code,
          seats: quote.seats,
          addOns: body.addOns ?? [],
          coupon: quote.coupon,
          total: quote.summary.total,
          returnUrl,
          state: "created",
          orderId: null,
          createdAt: ctx.now(),
        }),
    };
  });

  routes.raw({ method: "GET", path: PAYPAL_APPROVAL_PATH }, async (ctx) => {
    if (ctx.app.config.payments !== "sandbox") return fail("not_found");
    const approval = await PaypalApprovals.get(ctx.app.db, ctx.url.searchParams.get("id") ?? "");
    if (approval?.state !== "created") {
      return html(
        page(
          "PayPal sandbox",
          `<h1>PayPal sandbox</h1><p>${escapeHtml(apiError("paypal_approval_not_found").body.message)}</p>`,
        ),
        404,
      );
    }
    const plan = ctx.app.catalog.plans.find((p) => p.code === approval.productCode);
    const id = escapeHtml(approval.id);
    return html(
      page(
        "Approve payment — PayPal sandbox",
        `<h1>PayPal sandbox</h1>
<p class="note">This page stands in for PayPal while the server runs in sandbox mode. No money moves.</p>
<div class="box"><p><strong>${escapeHtml(plan?.name ?? approval.productCode)}</strong>${approval.seats > 1 ? `, ${approval.seats} seats` : ""}</p>
<p>Total today: <strong>${escapeHtml(formatUsd(approval.total))}</strong></p></div>
<form method="post" action="${PAYPAL_APPROVAL_PATH}"><input type="hidden" name="id" value="${id}">
<p><button class="primary" type="submit" name="action" value="approve">Approve and pay</button>
<button type="submit" name="action" value="cancel">Cancel</button></p></form>`,
      ),
    );
  });

  routes.raw(
    { method: "POST", path: PAYPAL_APPROVAL_PATH, body: ApprovalForm },
    async (ctx, input) => {
      if (ctx.app.config.payments !== "sandbox") return fail("not_found");
      const id = input.body?.id ?? "";
      const action = input.body?.action === "cancel" ? "cancel" : "approve";
      const { db, catalog } = ctx.app;
      const approval = await PaypalApprovals.get(db, id);
      if (!approval) throw new HttpError(apiError("paypal_approval_not_found"));
      // Checked again before anything is written: a row stored before the address was checked this
      // strictly returns to the fallback page instead of failing after the order is written.
      const returnPath =
        safeRedirectPath(approval.returnUrl, ctx.app.config.publicBaseUrl) ??
        PAYPAL_RETURN_FALLBACK;
      if (approval.state !== "created") {
        // A second click (or a replayed form) lands where the first one did.
        return redirect(
          withParams(returnPath, { paypal: approval.state, orderId: approval.orderId ?? "" }),
        );
      }
      if (action === "cancel") {
        await db.transaction((tx) => PaypalApprovals.settle(tx, id, "cancelled", null));
        return redirect(withParams(returnPath, { paypal: "cancelled" }));
      }
      // The account is priced again under its lock (services/account-lock.ts): between the
      // subscription call and this click the account may have bought something else.
      const outcome = await withAccountLock(ctx, approval.userId, async ({ user, account }) => {
        const priced = quoteFor(catalog, account, {
          targetProduct: approval.productCode,
          seats: approval.seats,
          addOns: approval.addOns,
          coupon: approval.coupon ?? undefined,
        });
        // PayPal charges what the customer approved; a different price now charges nothing.
        if (!priced.ok || priced.quote.summary.total !== approval.total) {
          await db.transaction((tx) => PaypalApprovals.settle(tx, id, "cancelled", null));
          return { state: "price_changed", orderId: "" };
        }
        const now = ctx.now();
        const { summary } = priced.quote;
        const order = buildOrder(
          catalog,
          account,
          priced.quote,
          { code: approval.productCode, addOns: approval.addOns },
          { processor: "paypal", chargeRef: `PAYPAL-${approval.id}`, idempotencyKey: approval.id },
          now,
        );
        const settled = await db.transaction(async (tx) => {
          if (!(await PaypalApprovals.settle(tx, id, "approved", order.id))) return false;
          await applyOrder(tx, catalog, account, order, summary);
          await Users.update(tx, user.id, { paypalSubscriptionId: `I-${approval.id.slice(6)}` });
          return true;
        });
        const final = settled ? order.id : ((await PaypalApprovals.get(db, id))?.orderId ?? "");
        return { state: "approved", orderId: final };
      });
      return redirect(withParams(returnPath, { paypal: outcome.state, orderId: outcome.orderId }));
    },
  );
}
