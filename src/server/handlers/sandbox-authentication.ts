// The sandbox's authentication page: the stand-in for Stripe's test 3-D Secure page. A purchase
// with one of Stripe's authentication cards (payments/test-cards.ts) answers 402
// authentication_required with this page's address; the payment step opens it in a window of
// its own, the customer chooses "Complete" or "Fail", and the window tells the checkout and
// closes. The checkout then asks the server again with the same Idempotency-Key, which writes the
// order only if the sandbox charge is now paid (docs/decisions/0037). Sandbox mode only.

import { createHash } from "node:crypto";
import { z } from "zod";
import { safeRedirectPath } from "../../domain/account/redirects.ts";
import { formatUsd } from "../../domain/pricing/index.ts";
import type { Routes } from "../app.ts";
import {
  AWAITING_AUTHENTICATION,
  CardTokens,
  SandboxCharges,
  SandboxCustomers,
  SandboxSetups,
} from "../db/ledger.ts";
import { escapeHtml, fail, html, redirect } from "../http/reply.ts";
import { SANDBOX_AUTHENTICATION_PATH } from "../payments/sandbox.ts";
import { authenticationOf } from "../payments/test-cards.ts";
import { RENEWAL_PAYMENT_PATH } from "../services/renewal-steps.ts";

/**
 * Where the page returns after the step when it was opened in the same window: only a renewal's
 * payment page (handlers/renewal-payment.ts), which reads the outcome from the server. Opened by
 * the checkout in a window of its own, it tells the checkout and closes instead.
 */
function returnPath(value: unknown): string | null {
  if (typeof value !== "string" || !value.startsWith(`${RENEWAL_PAYMENT_PATH}?`)) return null;
  return safeRedirectPath(value);
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.box{border:1px solid #c8c8c8;border-radius:8px;padding:1rem 1.25rem}.note{color:#555;font-size:.9rem}
button{font:inherit;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;background:#fff}
button.primary{background:#0b4ea2;color:#fff;border-color:#0b4ea2}</style></head><body>${body}</body></html>`;

/**
 * Tells the checkout that opened this window that the step is over, then closes the window. The
 * checkout learns the outcome from the server, never from this message, which carries none.
 */
const DONE_SCRIPT = `if(window.opener){window.opener.postMessage({source:"sandbox-authentication"},location.origin);}window.close();`;

function doneCsp(): string {
  const hash = createHash("sha256").update(DONE_SCRIPT, "utf8").digest("base64");
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
}

const notFound = () =>
  html(
    page(
      "Authentication — sandbox",
      "<h1>Payment authentication</h1><p>This payment does not wait for an authentication. Go back to the checkout.</p>",
    ),
    404,
  );

/** The page's form: which payment, and the button pressed ("complete"; anything else fails). */
const AuthenticationForm = z
  .object({
    payment: z.string().max(64).optional(),
    action: z.unknown().optional(),
    return: z.string().max(500).optional(),
  })
  .optional();

export function sandboxAuthenticationRoutes(routes: Routes): void {
  routes.raw({ method: "GET", path: SANDBOX_AUTHENTICATION_PATH }, async (ctx) => {
    if (ctx.app.config.payments !== "sandbox") return fail("not_found");
    const asked = ctx.url.searchParams.get("payment") ?? "";
    const charge = await SandboxCharges.byId(ctx.app.db, asked);
    // A card being saved (3155, 3184, 3178): its bank's step before it is saved, no amount.
    const setup = charge ? null : await SandboxSetups.byId(ctx.app.db, asked);
    const waiting =
      charge?.errorCode === AWAITING_AUTHENTICATION || setup?.state === "requires_action";
    if (!waiting) return notFound();
    const id = escapeHtml(charge?.id ?? setup?.id ?? "");
    const what = charge
      ? `Amount: <strong>${escapeHtml(formatUsd(charge.amount))}</strong>`
      : "Your card is being saved for later payments. Nothing is charged now.";
    const back = returnPath(ctx.url.searchParams.get("return"));
    const returnField = back
      ? `<input type="hidden" name="return" value="${escapeHtml(back)}">`
      : "";
    return html(
      page(
        "Authenticate payment — sandbox",
        `<h1>Payment authentication</h1>
<p class="note">This page stands in for your bank's 3-D Secure page while the server runs in sandbox mode. No money moves.</p>
<div class="box"><p>${what}</p></div>
<form method="post" action="${SANDBOX_AUTHENTICATION_PATH}"><input type="hidden" name="payment" value="${id}">${returnField}
<p><button class="primary" type="submit" name="action" value="complete">Complete</button>
<button type="submit" name="action" value="fail">Fail</button></p></form>`,
      ),
    );
  });

  routes.raw(
    { method: "POST", path: SANDBOX_AUTHENTICATION_PATH, body: AuthenticationForm },
    async (ctx, input) => {
      if (ctx.app.config.payments !== "sandbox") return fail("not_found");
      const form = input.body;
      const id = typeof form?.payment === "string" ? form.payment : "";
      const complete = form?.action === "complete";
      const { db } = ctx.app;
      const charge = await SandboxCharges.byId(db, id);
      const setup = charge ? null : await SandboxSetups.byId(db, id);
      if (setup) {
        // Settled once, as a payment's step is.
        await db.transaction((tx) =>
          SandboxSetups.settle(tx, setup.id, complete ? "succeeded" : "failed"),
        );
        return done(complete, returnPath(form?.return));
      }
      if (!charge) return notFound();
      // What the card does once authenticated (3178: declined for insufficient funds); a failed
      // step is Stripe's payment_intent_authentication_failure: nothing is charged.
      const tokenId = await SandboxCustomers.tokenOf(db, charge.customerId);
      const card = tokenId ? await CardTokens.get(db, tokenId) : null;
      const outcome = complete
        ? (authenticationOf(card?.chargeError ?? null)?.afterAuthentication ?? null)
        : "payment_intent_authentication_failure";
      // Settled once: a second answer (another tab, a replayed form) changes nothing.
      await db.transaction((tx) => SandboxCharges.settleAuthentication(tx, id, outcome));
      return done(complete, returnPath(form?.return));
    },
  );
}

/** The step is over: back to the page that sent the customer here, or tell the checkout's window. */
function done(complete: boolean, back: string | null) {
  if (back) return redirect(back, 303);
  return html(
    page(
      "Authentication finished — sandbox",
      `<h1>Payment authentication</h1><p>${complete ? "Authentication completed." : "Authentication failed."} Return to the checkout.</p>
<script>${DONE_SCRIPT}</script>`,
    ),
    200,
    { "Content-Security-Policy": doneCsp() },
  );
}
