// The card fields in Stripe mode: Stripe Elements' card element, which lives in Stripe's frame,
// so the card number, expiry, CVC and ZIP never enter this page (PCI SAQ A). Its box (.card-frame)
// has the height of the frame, before and after it mounts, so nothing below it moves. The card's
// PaymentMethod is made by Stripe.js (stores/stripe-token.ts) when the person pays, and a bank's
// step (3-D Secure) is shown by Stripe.js's handleNextAction (stores/payment-authentication.ts).
import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { useEffect, useState } from "react";
import { apiError } from "../../domain/errors/api-errors.ts";
import type { Tokenizer } from "../../stores/card-token.ts";
import { setAuthenticator } from "../../stores/payment-authentication.ts";
import { stripeTokenizer } from "../../stores/stripe-token.ts";
import { Problem } from "../screens/Frame.tsx";

// The page's own look inside Stripe's frame (Elements cannot read our stylesheet).
const CARD_OPTIONS = {
  style: {
    base: { fontSize: "16px", color: "#1a1a1a", "::placeholder": { color: "#6b6b6b" } },
    invalid: { color: "#b3261e" },
  },
};

function CardField({ onTokenizer }: { onTokenizer: (tokenizer: Tokenizer | null) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (!stripe || !elements || !mounted) return;
    const card = elements.getElement(CardElement);
    onTokenizer(
      stripeTokenizer(card ? () => stripe.createPaymentMethod({ type: "card", card }) : null),
    );
    // The bank's step of a payment or of saving the card (3-D Secure), shown by Stripe.js.
    setAuthenticator(async ({ clientSecret }) => {
      await stripe.handleNextAction({ clientSecret });
    });
    return () => {
      onTokenizer(null);
      setAuthenticator(null);
    };
  }, [stripe, elements, mounted, onTokenizer]);
  return (
    <div className="card-frame" aria-busy={!mounted} data-testid="stripe-card-frame">
      <CardElement options={CARD_OPTIONS} onReady={() => setMounted(true)} />
    </div>
  );
}

export function StripeCardFields({
  stripe,
  onTokenizer,
  onRetry,
}: {
  /** Stripe.js's object (provider-sdks.ts: one per page load); null when it could not load. */
  stripe: Promise<Stripe | null>;
  onTokenizer: (tokenizer: Tokenizer | null) => void;
  /** Loads Stripe.js again (a new promise comes back as `stripe`). */
  onRetry: () => void;
}) {
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    let current = true;
    setUnavailable(false);
    void stripe.then((loaded) => {
      if (current) setUnavailable(loaded === null);
    });
    return () => {
      current = false;
    };
  }, [stripe]);
  // The fieldset, its words and the box's reserved height are PaymentForm's (they show while
  // this chunk loads); this fills the box.
  return unavailable ? (
    <Problem message={apiError("payment_provider_unavailable").body.message} retry={onRetry} />
  ) : (
    <Elements stripe={stripe}>
      <CardField onTokenizer={onTokenizer} />
    </Elements>
  );
}
