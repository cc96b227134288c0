// The billing address: it decides sales tax, so the summary is priced again once it is saved.
import { useStore } from "@nanostores/react";
import type { SubmitEvent } from "react";
import { refreshSummary } from "../../stores/checkout.ts";
import { submitAddress } from "../../stores/payment.ts";
import { $user } from "../../stores/user.ts";
import { Problem } from "../screens/Frame.tsx";
import { OrganisationSection } from "./OrganisationSection.tsx";

const COUNTRIES: [string, string][] = [
  ["US", "United States"],
  ["CA", "Canada"],
  ["GB", "United Kingdom"],
  ["IE", "Ireland"],
  ["DE", "Germany"],
  ["FR", "France"],
  ["ES", "Spain"],
  ["IT", "Italy"],
  ["NL", "Netherlands"],
  ["SE", "Sweden"],
  ["NO", "Norway"],
  ["AU", "Australia"],
  ["NZ", "New Zealand"],
];

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export function AddressForm() {
  const state = useStore(submitAddress.$state);
  const user = useStore($user);
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await submitAddress.run({
      name: text(form, "name"),
      country: text(form, "country") ?? "US",
      state: text(form, "state"),
      postalCode: text(form, "postalCode"),
    });
    if (result.ok) await refreshSummary();
  };
  const address = (
    <form className="stack" onSubmit={onSubmit} aria-label="Billing address">
      <label htmlFor="address-name">Name on the invoice</label>
      <input id="address-name" name="name" autoComplete="name" />
      <label htmlFor="address-country">Country</label>
      <select
        id="address-country"
        name="country"
        autoComplete="country"
        defaultValue={user.userCountryCode || "US"}
      >
        {COUNTRIES.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      <label htmlFor="address-state">State or region</label>
      <input
        id="address-state"
        name="state"
        autoComplete="address-level1"
        defaultValue={user.userStateCode ?? ""}
      />
      <label htmlFor="address-postal">ZIP or postal code</label>
      <input id="address-postal" name="postalCode" autoComplete="postal-code" />
      <button type="submit" className="btn" disabled={state.status === "started"}>
        {state.status === "started" ? "Saving…" : "Save address"}
      </button>
      <div aria-live="polite">
        {state.status === "failure" && <Problem failure={state.error} />}
        {state.status === "success" && <p role="status">Address saved; tax is included below.</p>}
      </div>
    </form>
  );
  // Issue 23: the organisation and its tax id (its own component; in this chunk, after the screen).
  return (
    <>
      {address}
      <OrganisationSection onSaved={refreshSummary} />
    </>
  );
}
