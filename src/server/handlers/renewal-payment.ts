// The page of a renewal's dunning e-mail when the bank wants the customer (3-D Secure, issue 20
// item 3): the off-session renewal was refused with authentication_required, and here the
// customer authenticates that same payment (the renewal's PaymentIntent, or the sandbox's
// charge, under the renewal's own provider key). Whenever the page is opened, the payment is read
// back from the provider and, once it has succeeded, the period is recorded exactly once
// (services/renewals.ts settleByCustomer): the order, its invoice, the period, the receipt.
// Opening it again, or the provider's step returning here twice, records nothing more. A payment
// cancelled since (a new attempt replaced it, the subscription lapsed or changed: decision 0070)
// is said to be, with no button.
//
// - Sandbox: the button leads to the sandbox's authentication page (Complete / Fail), which
//   comes back here.
// - Stripe: the button loads Stripe.js (only on this page, only when pressed) and confirms the
//   PaymentIntent with its client secret and the saved card (confirmCardPayment, which shows
//   the bank's step), then reloads this page; the server retrieves the intent itself and checks
//   its amount, currency, customer and order key before recording anything.
//
// The link carries a token keyed with the server's secret: only the e-mail's reader opens it. No
// session is needed (the e-mail may be read on another device), and the page shows only the
// plan, the amount and the period.
import { createHash, timingSafeEqual } from "node:crypto";
import { formatUsd } from "../../domain/pricing/index.ts";
import type { Routes } from "../app.ts";
import type { Ctx } from "../context.ts";
import { escapeHtml, html } from "../http/reply.ts";
import { SANDBOX_AUTHENTICATION_PATH } from "../payments/sandbox.ts";
import type { CustomerPayment } from "../services/renewal-settle.ts";
import { RENEWAL_PAYMENT_PATH, renewalPaymentToken } from "../services/renewal-steps.ts";
import { RenewalWorker } from "../services/renewals.ts";

/** Stripe.js of the release train the browser's @stripe/stripe-js loads (its RELEASE_TRAIN). */
const STRIPE_JS_URL = "https://js.stripe.com/endive/stripe.js";

const day = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const date = (ms: number) => day.format(new Date(ms));

/**
 * The Stripe step: loads Stripe.js when the button is pressed, confirms the payment with the
 * saved card (the bank's step shows in Stripe's frame), then reloads the page, whose server
 * reads the payment's outcome from Stripe. What Stripe.js answers is not trusted: only shown.
 */
const STRIPE_SCRIPT = `(function(){var b=document.getElementById("confirm-payment");if(!b)return;var m=document.getElementById("payment-message");b.addEventListener("click",function(){b.disabled=true;m.textContent="Opening your bank's check…";var s=document.createElement("script");s.src=b.dataset.stripeJs;s.onerror=function(){b.disabled=false;m.textContent="Your bank's check could not be opened. Check your connection and try again.";};s.onload=function(){var stripe=window.Stripe(b.dataset.key);stripe.confirmCardPayment(b.dataset.secret,{payment_method:b.dataset.method}).then(function(r){if(r&&r.error){m.textContent=r.error.message||"The payment was not confirmed.";}location.reload();},function(){location.reload();});};document.head.appendChild(s);});})();`;

function csp(stripe: boolean): string {
  const hash = createHash("sha256").update(STRIPE_SCRIPT, "utf8").digest("base64");
  return [
    "default-src 'none'",
    stripe ? `script-src 'sha256-${hash}' https://js.stripe.com` : "script-src 'none'",
    stripe ? "frame-src https://js.stripe.com https://hooks.stripe.com" : "frame-src 'none'",
    stripe ? "connect-src https://api.stripe.com" : "connect-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.box{border:1px solid #c8c8c8;border-radius:8px;padding:1rem 1.25rem}
.button{display:inline-block;font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #0b4ea2;background:#0b4ea2;color:#fff;text-decoration:none;cursor:pointer}</style></head><body><main>${body}</main></body></html>`;

/** The renewal the link names, when its token is right. */
function linked(ctx: Ctx): string | null {
  const id = ctx.url.searchParams.get("id") ?? "";
  const token = ctx.url.searchParams.get("token") ?? "";
  if (!/^ren_[A-Za-z0-9_-]{1,40}$/.test(id)) return null;
  const expected = Buffer.from(renewalPaymentToken(ctx.app.secret, id));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

function accountLink(): string {
  return `<p><a href="/cart/home">Go to your account</a></p>`;
}

function render(ctx: Ctx, result: CustomerPayment): { body: string; status: number } {
  const { renewal } = result;
  if (renewal === null) {
    return {
      status: 404,
      body: "<h1>Renewal payment</h1><p>This link is not valid. Sign in to your account to see your subscription.</p>",
    };
  }
  const plan =
    ctx.app.catalog.plans.find((p) => p.code === renewal.productCode)?.name ?? renewal.productCode;
  const summary = `<div class="box"><p>${escapeHtml(plan)}: <strong>${escapeHtml(formatUsd(renewal.amount))}</strong> for ${escapeHtml(date(renewal.periodStart))} to ${escapeHtml(date(renewal.periodEnd))}</p></div>`;
  const nextTry = `If it is not confirmed, we will try your card again on ${escapeHtml(date(renewal.nextAttemptAt))}; until then your subscription keeps working.`;
  switch (result.kind) {
    case "paid":
      return {
        status: 200,
        body: `<h1>Payment received</h1>${summary}<p role="status">Thank you: your payment went through and your subscription continues. The receipt is on its way by e-mail.</p>${accountLink()}`,
      };
    case "waiting": {
      const here = `${RENEWAL_PAYMENT_PATH}${ctx.url.search}`;
      const stripeKey = ctx.app.config.stripe?.publishableKey ?? null;
      const button =
        ctx.app.payments.name === "stripe" && stripeKey !== null
          ? `<p><button class="button" type="button" id="confirm-payment" data-stripe-js="${escapeHtml(STRIPE_JS_URL)}" data-key="${escapeHtml(stripeKey)}" data-secret="${escapeHtml(result.action.clientSecret)}" data-method="${escapeHtml(result.paymentMethodId ?? "")}">Confirm the payment</button></p><p id="payment-message" role="status"></p><script>${STRIPE_SCRIPT}</script>`
          : `<p><a class="button" id="confirm-payment" href="${escapeHtml(
              `${SANDBOX_AUTHENTICATION_PATH}?${new URLSearchParams({ payment: result.action.intentId, return: here })}`,
            )}">Confirm the payment</a></p>`;
      return {
        status: 200,
        body: `<h1>Confirm your payment</h1>${summary}<p>Your bank asks you to confirm this payment yourself before we can renew your subscription.</p>${button}<p>${nextTry}</p>${accountLink()}`,
      };
    }
    case "refused":
      return {
        status: 200,
        body: `<h1>Payment not confirmed</h1>${summary}<p role="alert">The payment was not confirmed, and nothing was charged.</p><p>${nextTry} To pay with another card, add it in your account.</p>${accountLink()}`,
      };
    case "unknown":
    case "busy":
      return {
        status: 503,
        body: `<h1>Renewal payment</h1>${summary}<p role="status">We could not check this payment just now. Reload this page in a minute.</p>`,
      };
    case "cancelled": {
      // Cancelled at the provider (decision 0070): a page left open with it cannot pay it either.
      const since =
        renewal.state === "lapsed" || renewal.state === "closed"
          ? "Your subscription has changed or ended since."
          : "A newer attempt to renew, or a change to your subscription, has replaced it.";
      return {
        status: 200,
        body: `<h1>Payment cancelled</h1>${summary}<p role="status">This payment was cancelled and can no longer be made. Nothing was charged for it.</p><p>${since} Your account shows where your subscription stands.</p>${accountLink()}`,
      };
    }
    case "closed":
      // Paid from a page left open after the renewal stopped being due (decision 0070): it
      // renews nothing, and support, told by the server's log, gives it back.
      if (renewal.paymentRetired === "paid") {
        return {
          status: 200,
          body: `<h1>Renewal payment</h1>${summary}<p role="status">This payment went through after your subscription had changed, so it does not renew anything. We will refund it.</p>${accountLink()}`,
        };
      }
      return {
        status: 200,
        body: `<h1>Renewal payment</h1>${summary}<p>This payment can no longer be made: your subscription has changed since. Your account shows where it stands.</p>${accountLink()}`,
      };
  }
}

export function renewalPaymentRoutes(routes: Routes): void {
  routes.raw({ method: "GET", path: RENEWAL_PAYMENT_PATH }, async (ctx) => {
    const id = linked(ctx);
    const { db, clock, log, catalog, payments, mailer, config, secret } = ctx.app;
    const result: CustomerPayment =
      id === null
        ? { kind: "closed", renewal: null }
        : await new RenewalWorker(
            { db, clock, log, catalog, payments, mailer, config, secret },
            { intervalMs: 0 },
          ).settleByCustomer(id);
    const { body, status } = render(ctx, result);
    const stripe = result.kind === "waiting" && payments.name === "stripe";
    return html(page("Renewal payment", body), status, {
      "Content-Security-Policy": csp(stripe),
      "Cache-Control": "no-store",
    });
  });
}
