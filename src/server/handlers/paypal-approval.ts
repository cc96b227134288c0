// The sandbox's stand-in for PayPal's approval page (a local run without PAYPAL_*, under /dev/):
// the page that shows what is approved, its form, which writes the order once and sends the
// customer back (or, in a popup inside the hub, tells the checkout's frame), and the status the
// frame polls. The subscription call that leads here is paypal.ts's.
import { z } from "zod";
import { safeRedirectPath } from "../../domain/account/redirects.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import { formatUsd } from "../../domain/pricing/index.ts";
import { PaypalApprovals } from "../db/paypal-approvals.ts";
import { Users } from "../db/users.ts";
import { escapeHtml, fail, html, json, redirect } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { tryWithAccountLock } from "../services/account-lock.ts";
import { numberAfterCommit } from "../services/invoice-numbering.ts";
import { invoiceOrder } from "../services/invoices.ts";
import { applyOrder, buildOrder } from "../services/orders.ts";
import { approvedPricing, PAYPAL_APPROVAL_PATH } from "../services/paypal-subscriptions.ts";

/** The approval page's form: which approval, the button pressed (anything else approves), popup. */
const ApprovalForm = z
  .object({
    id: z.string().max(64).optional(),
    action: z.unknown().optional(),
    popup: z.unknown().optional(),
  })
  .optional();

/**
 * Where an approval returns when its stored return address does not pass the allow-list (a row
 * written before the address was checked this strictly): the checkout's PayPal result page.
 */
const PAYPAL_RETURN_FALLBACK = "/cart#paypalCompleted";

function withParams(path: string, params: Record<string, string>): string {
  const hashAt = path.indexOf("#");
  const base = hashAt < 0 ? path : path.slice(0, hashAt);
  const hash = hashAt < 0 ? "" : path.slice(hashAt);
  const separator = base.includes("?") ? "&" : "?";
  return `${base}${separator}${new URLSearchParams(params)}${hash}`;
}

/**
 * Where an approval's outcome leads: an approval to paypalCompleted with its order; a
 * cancellation (or a price that changed) back to the checkout it came from, with its plan,
 * period and seats (the return address's query) kept, told why (never a "complete" page).
 */
function returnTarget(returnPath: string, state: string, orderId: string | null): string {
  if (state === "approved")
    return withParams(returnPath, { paypal: "approved", orderId: orderId ?? "" });
  const hashAt = returnPath.indexOf("#");
  const base = hashAt < 0 ? returnPath : returnPath.slice(0, hashAt);
  return withParams(`${base}#checkout`, {
    paypal: state === "price_changed" ? "price_changed" : "cancelled",
  });
}

/** The page a popup approval ends on (inside the hub): the checkout's frame hears the outcome. */
function popupDone(state: string): string {
  const what =
    state === "approved"
      ? "Payment approved."
      : state === "price_changed"
        ? "The price changed before you approved: nothing was charged."
        : "You cancelled: nothing was charged.";
  return page(
    "PayPal sandbox",
    `<h1>PayPal sandbox</h1><p>${escapeHtml(what)}</p><p class="note">The checkout continues in the window you came from. You can close this one.</p>`,
  );
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.box{border:1px solid #c8c8c8;border-radius:8px;padding:1rem 1.25rem}.note{color:#555;font-size:.9rem}
button{font:inherit;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;background:#fff}
button.primary{background:#0b4ea2;color:#fff;border-color:#0b4ea2}</style></head><body>${body}</body></html>`;

export function paypalApprovalRoutes(routes: Routes): void {
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
<form method="post" action="${PAYPAL_APPROVAL_PATH}"><input type="hidden" name="id" value="${id}">${ctx.url.searchParams.get("popup") === "1" ? '<input type="hidden" name="popup" value="1">' : ""}
<p><button class="primary" type="submit" name="action" value="approve">Approve and pay</button>
<button type="submit" name="action" value="cancel">Cancel</button></p></form>`,
      ),
    );
  });

  routes.raw(
    { method: "POST", path: PAYPAL_APPROVAL_PATH, body: ApprovalForm },
    async (ctx, input) => {
      if (ctx.app.config.payments !== "sandbox") return fail("not_found");
      const form = input.body;
      const id = typeof form?.id === "string" ? form.id : "";
      const action = form?.action === "cancel" ? "cancel" : "approve";
      // Opened as a popup by the checkout in the hub's frame: the frame asks the status route.
      const popup = form?.popup === "1";
      const finish = (state: string, orderId: string | null, returnPath: string) =>
        popup ? html(popupDone(state)) : redirect(returnTarget(returnPath, state, orderId));
      const { db, catalog } = ctx.app;
      const approval = await PaypalApprovals.get(db, id);
      if (!approval) return fail("paypal_approval_not_found");
      // Checked again before anything is written: a row stored before the address was checked this
      // strictly returns to the fallback page instead of failing after the order is written.
      const returnPath =
        safeRedirectPath(approval.returnUrl, ctx.app.config.publicBaseUrl) ??
        PAYPAL_RETURN_FALLBACK;
      if (approval.state !== "created") {
        // A second click (or a replayed form) lands where the first one did.
        return finish(approval.state, approval.orderId, returnPath);
      }
      if (action === "cancel") {
        await db.transaction((tx) => PaypalApprovals.settle(tx, id, "cancelled", null));
        return finish("cancelled", null, returnPath);
      }
      // The account is priced again under its lock (services/account-lock.ts): between the
      // subscription call and this click the account may have bought something else.
      const locked = await tryWithAccountLock(
        ctx.app,
        approval.userId,
        async ({ user, account }) => {
          const pricing = approvedPricing(
            catalog,
            account,
            approval,
            ctx.app.config.seller.country,
          );
          // PayPal charges what the customer approved; a different price now charges nothing.
          if (pricing === null) {
            await db.transaction((tx) => PaypalApprovals.settle(tx, id, "price_changed", null));
            return { state: "price_changed", orderId: "", numbering: null };
          }
          const now = ctx.now();
          const { summary } = pricing;
          const order = buildOrder(
            catalog,
            account,
            pricing,
            { code: approval.productCode, addOns: approval.addOns },
            {
              processor: "paypal",
              chargeRef: `PAYPAL-${approval.id}`,
              idempotencyKey: approval.id,
            },
            now,
          );
          const settled = await db.transaction(async (tx) => {
            if (!(await PaypalApprovals.settle(tx, id, "approved", order.id))) return false;
            await applyOrder(tx, catalog, account, order, summary);
            await invoiceOrder(tx, ctx.app, { order, summary, account });
            await Users.update(tx, user.id, { paypalSubscriptionId: `I-${approval.id.slice(6)}` });
            return true;
          });
          const final = settled ? order.id : ((await PaypalApprovals.get(db, id))?.orderId ?? "");
          return { state: "approved", orderId: final, numbering: settled ? order.id : null };
        },
      );
      if (!locked.locked)
        return fail(locked.reason === "busy" ? "account_busy" : "not_authenticated");
      const outcome = locked.value;
      // Numbered once the account's lock is let go, as a card purchase's invoice is (0062).
      if (outcome.numbering) await numberAfterCommit(ctx.app, outcome.numbering);
      return finish(outcome.state, outcome.orderId, returnPath);
    },
  );

  // Where a popup approval stands (the checkout in the hub's frame polls it): created, or the
  // address the frame continues at. The approval id is the secret; nothing else is told.
  routes.raw({ method: "GET", path: `${PAYPAL_APPROVAL_PATH}/status` }, async (ctx) => {
    if (ctx.app.config.payments !== "sandbox" || ctx.app.paypal) return fail("not_found");
    const approval = await PaypalApprovals.get(ctx.app.db, ctx.url.searchParams.get("id") ?? "");
    if (!approval) return fail("paypal_approval_not_found");
    const returnPath =
      safeRedirectPath(approval.returnUrl, ctx.app.config.publicBaseUrl) ?? PAYPAL_RETURN_FALLBACK;
    return json({
      state: approval.state,
      next:
        approval.state === "created"
          ? null
          : returnTarget(returnPath, approval.state, approval.orderId),
    });
  });
}
