// The sandbox provider's card fields (local runs: Stripe's test card numbers, see
// src/server/README.md). One field each for the number (spaced in groups as typed, its brand
// named), the expiry (MM / YY, formatted as typed) and the security code; the ZIP or postal code
// is the billing address's (issue 22, item 7). Each field has a visible label, its autocomplete
// and a numeric keyboard, and says beside it what is wrong (`errors`, issue 22, item 6).
import { useState } from "react";
import {
  BRAND_NAMES,
  brandOf,
  cardDigits,
  formatCardNumber,
  formatExpiry,
} from "../../domain/checkout/card-number.ts";
import { type FieldErrors, FieldProblem, problemProps } from "../forms/field-errors.tsx";

export function SandboxCardFields({ errors }: { errors: FieldErrors }) {
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const brand = BRAND_NAMES[brandOf(cardDigits(number))];
  return (
    <fieldset className="stack">
      <legend>Card</legend>
      <p className="note">
        Test payments: no money moves and no card is charged. Try 4242 4242 4242 4242.
      </p>
      <label htmlFor="card-number">Card number</label>
      <div className="card-number">
        <input
          id="card-number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          required
          value={number}
          onChange={(event) => setNumber(formatCardNumber(event.target.value))}
          {...problemProps(errors, "cardNumber", "card-number")}
        />
        <span className="card-brand" data-testid="card-brand">
          {brand}
        </span>
      </div>
      <FieldProblem errors={errors} name="cardNumber" id="card-number" />
      <label htmlFor="card-expiry">Expiry date (MM / YY)</label>
      <input
        id="card-expiry"
        name="expiry"
        inputMode="numeric"
        autoComplete="cc-exp"
        placeholder="MM / YY"
        required
        value={expiry}
        onChange={(event) => {
          const typed = event.target.value;
          setExpiry(formatExpiry(typed, typed.length < expiry.length));
        }}
        {...problemProps(errors, "expiry", "card-expiry")}
      />
      <FieldProblem errors={errors} name="expiry" id="card-expiry" />
      <label htmlFor="card-cvc">Security code (CVC)</label>
      <input
        id="card-cvc"
        name="cvc"
        inputMode="numeric"
        autoComplete="cc-csc"
        maxLength={4}
        required
        {...problemProps(errors, "cvc", "card-cvc")}
      />
      <FieldProblem errors={errors} name="cvc" id="card-cvc" />
    </fieldset>
  );
}
