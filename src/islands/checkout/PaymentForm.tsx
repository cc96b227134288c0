// How the person pays: the saved card, a new card (the sandbox provider's token form; card data
// goes only to the sandbox tokens call, never to the upgrade call) or PayPal. The pay button names
// the amount, is disabled while a payment runs and shows progress. A failure keeps what was typed
// and says what to do, with section 8's words for card errors.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useState } from "react";
import type { OrderSummaryAnswer } from "../../api/contract/products.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { $checkout, payByCard, type SandboxCard, startPaypal } from "../../stores/checkout.ts";
import { $user } from "../../stores/user.ts";
import { Problem } from "../screens/Frame.tsx";
import { SandboxCardFields } from "./SandboxCardFields.tsx";

type Method = "saved" | "card" | "paypal";

function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

function cardFrom(form: FormData): SandboxCard {
  return {
    number: field(form, "cardNumber"),
    expMonth: Number(field(form, "expMonth")),
    expYear: Number(field(form, "expYear")),
    cvc: field(form, "cvc"),
    postalCode: field(form, "cardPostalCode"),
  };
}

export function PaymentForm({
  summary,
  onConfirm,
}: {
  summary: OrderSummaryAnswer | null;
  /** Called as the person confirms (single exports tell the hub). */
  onConfirm?: () => void;
}) {
  const user = useStore($user);
  const checkout = useStore($checkout);
  const paypal = useStore(startPaypal.$state);
  // Which method is picked is a view choice, not business state.
  const [method, setMethod] = useState<Method>(user.userHasPaymentMethodSet ? "saved" : "card");
  const downgrade = summary?.change === "downgrade";
  const busy = checkout.paying || paypal.status === "started";
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!summary || busy) return;
    onConfirm?.();
    if (method === "paypal") {
      void startPaypal.run();
      return;
    }
    void payByCard(
      method === "card" && !downgrade ? cardFrom(new FormData(event.currentTarget)) : null,
    );
  };
  const label = !summary
    ? "Pay"
    : downgrade
      ? "Confirm the change"
      : method === "paypal"
        ? `Pay ${formatUsd(summary.total)} with PayPal`
        : `Pay ${formatUsd(summary.total)}`;
  const failure = checkout.failure ?? (paypal.status === "failure" ? paypal.error : null);
  return (
    <form className="stack" onSubmit={onSubmit} aria-label="Payment" noValidate>
      {!downgrade && (
        <fieldset>
          <legend>Payment method</legend>
          {user.userHasPaymentMethodSet && (
            <label>
              <input
                type="radio"
                name="method"
                checked={method === "saved"}
                onChange={() => setMethod("saved")}
              />{" "}
              The card on your account
            </label>
          )}
          <label>
            <input
              type="radio"
              name="method"
              checked={method === "card"}
              onChange={() => setMethod("card")}
            />{" "}
            {user.userHasPaymentMethodSet ? "A new card" : "Card"}
          </label>
          <label>
            <input
              type="radio"
              name="method"
              checked={method === "paypal"}
              onChange={() => setMethod("paypal")}
            />{" "}
            PayPal
          </label>
        </fieldset>
      )}
      {!downgrade && method === "card" && <SandboxCardFields />}
      {checkout.priceChanged && (
        <p role="alert" className="problem">
          The price changed since you saw it. Check the new total above and confirm again.
        </p>
      )}
      {checkout.resuming && <p role="status">Finishing the payment you started…</p>}
      <button type="submit" className="btn" disabled={!summary || busy} aria-busy={busy}>
        {busy ? (
          <>
            <span className="spinner" aria-hidden="true" /> Paying…
          </>
        ) : (
          label
        )}
      </button>
      {failure && <Problem failure={failure} />}
    </form>
  );
}
