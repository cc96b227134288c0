// Update card in Stripe mode (issue 34, item 3): Stripe Elements' card element (the checkout's
// StripeCardFields: the card stays in Stripe's frame), loaded in a chunk of its own only when the
// person opens Update card on the account page (UpdateCard.tsx imports this dynamically). It
// imports nothing of the checkout's payment step but that chunk, and loads Stripe.js itself, so
// the checkout's first load is unchanged (e2e/cart/budgets.spec.ts). Saving goes through
// stores/account-card.ts: the PaymentMethod saved with a SetupIntent for the renewals, with the
// bank's step shown by Stripe.js when the bank asks (StripeCardFields registers it).
import { useStore } from "@nanostores/react";
import type { Stripe } from "@stripe/stripe-js";
import { type SubmitEvent, useCallback, useState } from "react";
import { $cardUpdate, updateCard } from "../../stores/account-card.ts";
import type { Tokenizer } from "../../stores/card-token.ts";
import { StripeCardFields } from "../checkout/StripeCardFields.tsx";
import { Problem } from "../screens/Frame.tsx";

/** Stripe.js for this key; null when it could not load (a retry loads it again). */
function loadStripeJs(publishableKey: string): Promise<Stripe | null> {
  return import("@stripe/stripe-js/pure")
    .then((module) => module.loadStripe(publishableKey))
    .catch(() => null);
}

export function StripeCardUpdate({
  publishableKey,
  onCancel,
}: {
  publishableKey: string;
  onCancel: () => void;
}) {
  const state = useStore($cardUpdate);
  // Elements keeps the Stripe object it was first given: one per form, a new one on retry.
  const [stripe, setStripe] = useState(() => loadStripeJs(publishableKey));
  const [tokenizer, setTokenizer] = useState<Tokenizer | null>(null);
  // A function kept as state, not a state updater; stable, as StripeCardFields' effect needs.
  const onTokenizer = useCallback((next: Tokenizer | null) => setTokenizer(() => next), []);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (tokenizer) void updateCard(tokenizer);
  };
  return (
    <form className="stack" aria-label="Update card" onSubmit={onSubmit} noValidate>
      <p className="note">Your card is checked and saved by Stripe; nothing is charged now.</p>
      <fieldset>
        <legend>Card</legend>
        <StripeCardFields
          stripe={stripe}
          onTokenizer={onTokenizer}
          onRetry={() => setStripe(loadStripeJs(publishableKey))}
        />
      </fieldset>
      {state.failure && <Problem failure={state.failure} />}
      <div className="actions">
        <button
          type="submit"
          className="btn"
          disabled={tokenizer === null || state.phase === "saving"}
        >
          {state.phase === "saving" ? "Saving your card…" : "Save card"}
        </button>
        <button type="button" className="btn secondary" onClick={onCancel}>
          Keep the current card
        </button>
      </div>
    </form>
  );
}
