// The sandbox provider's card fields (local runs: Stripe's test card numbers, see
// src/server/README.md). Each field has a visible label, its autocomplete and a numeric keyboard.
export function SandboxCardFields() {
  const year = new Date().getFullYear();
  return (
    <fieldset className="stack">
      <legend>Card</legend>
      <p className="note">Test payments: no money moves. Try 4242 4242 4242 4242.</p>
      <label htmlFor="card-number">Card number</label>
      <input
        id="card-number"
        name="cardNumber"
        inputMode="numeric"
        autoComplete="cc-number"
        required
      />
      <label htmlFor="card-exp-month">Expiry month</label>
      <input
        id="card-exp-month"
        name="expMonth"
        inputMode="numeric"
        autoComplete="cc-exp-month"
        placeholder="MM"
        required
      />
      <label htmlFor="card-exp-year">Expiry year</label>
      <input
        id="card-exp-year"
        name="expYear"
        inputMode="numeric"
        autoComplete="cc-exp-year"
        placeholder={String(year + 2)}
        required
      />
      <label htmlFor="card-cvc">Security code (CVC)</label>
      <input id="card-cvc" name="cvc" inputMode="numeric" autoComplete="cc-csc" required />
      <label htmlFor="card-postal">Card ZIP or postal code</label>
      <input id="card-postal" name="cardPostalCode" autoComplete="postal-code" required />
    </fieldset>
  );
}
