// Update card (issue 34, item 3): a new card saved for the account's renewals through
// /api/3/payment/token, with the bank's step when the bank asks. The sandbox provider's card form
// here (SandboxAuthentication for the bank's step); in Stripe mode Stripe Elements' card, whose
// code loads in a chunk of its own once the person opens the form (StripeCardUpdate.tsx), never
// with the checkout's first load. State: stores/account-card.ts; a failed renewal's e-mail links
// here.
import { useStore } from "@nanostores/react";
import { lazy, type SubmitEvent, Suspense, use, useEffect, useState } from "react";
import { cardDigits, parseExpiry } from "../../domain/checkout/card-number.ts";
import { $cardUpdate, resetCardUpdate, updateCard } from "../../stores/account-card.ts";
import { $paymentMethod } from "../../stores/account-payment-method.ts";
import { sandboxTokenizer } from "../../stores/card-token.ts";
import { paymentProviders } from "../../stores/payment-providers.ts";
import { SandboxAuthentication } from "../checkout/SandboxAuthentication.tsx";
import { SandboxCardFields } from "../checkout/SandboxCardFields.tsx";
import { Busy, Problem } from "../screens/Frame.tsx";

const StripeCardUpdate = lazy(() =>
  import("./StripeCardUpdate.tsx").then((m) => ({ default: m.StripeCardUpdate })),
);

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

export function UpdateCard() {
  const state = useStore($cardUpdate);
  const method = useStore($paymentMethod);
  // Whether the form is open: a view's choice, not account state.
  const [open, setOpen] = useState(false);
  useEffect(() => resetCardUpdate, []);
  if (state.phase === "saved") {
    return (
      <p role="status">
        Your new card is saved{method?.label ? `: ${method.label}` : ""}. Your renewals are charged
        to it from now on.
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="btn secondary" onClick={() => setOpen(true)}>
        Update card
      </button>
    );
  }
  return (
    <Suspense fallback={<Busy label="Loading the card form…" />}>
      <CardForm onCancel={() => setOpen(false)} />
    </Suspense>
  );
}

function CardForm({ onCancel }: { onCancel: () => void }) {
  const providers = use(paymentProviders());
  const state = useStore($cardUpdate);
  if (!providers.ok) return <Problem failure={providers.error} />;
  const card = providers.value.card;
  if (card.provider === "stripe") {
    return <StripeCardUpdate publishableKey={card.publishableKey} onCancel={onCancel} />;
  }
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const expiry = parseExpiry(text(form, "expiry"));
    void updateCard(
      sandboxTokenizer({
        number: cardDigits(text(form, "cardNumber")),
        expMonth: expiry?.month ?? 0,
        expYear: expiry?.year ?? 0,
        cvc: text(form, "cvc"),
        postalCode: text(form, "postalCode"),
      }),
    );
  };
  return (
    <form className="stack" aria-label="Update card" onSubmit={onSubmit} noValidate>
      <SandboxCardFields errors={{}} />
      <label htmlFor="card-postal">ZIP or postal code</label>
      <input
        id="card-postal"
        name="postalCode"
        autoComplete="postal-code"
        maxLength={12}
        required
      />
      <SandboxAuthentication />
      {state.failure && <Problem failure={state.failure} />}
      <div className="actions">
        <button type="submit" className="btn" disabled={state.phase === "saving"}>
          {state.phase === "saving" ? "Saving your card…" : "Save card"}
        </button>
        <button type="button" className="btn secondary" onClick={onCancel}>
          Keep the current card
        </button>
      </div>
    </form>
  );
}
