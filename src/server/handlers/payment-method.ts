// How the account pays (issue 34, item 3), for the account page: the card saved for renewals, as
// the invoices name it ("Visa ending 4242"), or PayPal when PayPal bills the subscription.
import { api } from "../../contract/index.ts";
import type { PaymentMethod } from "../../contract/payment.ts";
import { json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { paymentMethodLabel } from "../services/invoices.ts";
import { accountOf } from "./helpers.ts";

export function paymentMethodRoutes(routes: Routes): void {
  routes.api(api.paymentMethod, async (ctx, { user }) => {
    const account = await accountOf(ctx, user);
    const answer: PaymentMethod =
      account.paymentMethod === "paypal"
        ? { kind: "paypal", label: "PayPal" }
        : user.cardLast4
          ? // A label for a charge (a total above 0): the card's brand and last four digits.
            { kind: "card", label: paymentMethodLabel(user, "cc", 1) }
          : { kind: "none", label: null };
    return json(answer);
  });
}
