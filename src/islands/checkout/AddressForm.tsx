// The billing address: it decides sales tax, so once it is complete (a country, its state or
// region where the country has a list, and a ZIP or postal code) it is saved and the summary is
// priced again, with no button to press (issue 22, item 7). States and regions are chosen from a
// list (domain/checkout/regions.ts); each field says what is wrong beside it, the server's answer
// included (issue 22, item 6). The postal code is also the card's (stores/billing-address.ts).
import { useStore } from "@nanostores/react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { COUNTRIES, postalCodeLabel, regionsOf } from "../../domain/checkout/regions.ts";
import {
  $billingPostalCode,
  $billingProblem,
  $billingRegion,
  $billingStateProblem,
  trackAddressSave,
} from "../../stores/billing-address.ts";
import { refreshSummary } from "../../stores/checkout.ts";
import { submitAddress } from "../../stores/payment.ts";
import { $user } from "../../stores/user.ts";
import {
  checkFields,
  type FieldErrors,
  FieldProblem,
  focusFirstProblem,
  problemProps,
  serverFieldErrors,
} from "../forms/field-errors.tsx";
import { filledText } from "../forms/form-values.ts";
import { Problem } from "../screens/Frame.tsx";
import { OrganisationSection } from "./OrganisationSection.tsx";

export function AddressForm() {
  const state = useStore(submitAddress.$state);
  const user = useStore($user);
  const form = useRef<HTMLFormElement>(null);
  const [country, setCountry] = useState(user.userCountryCode || "US");
  const [ownErrors, setErrors] = useState<FieldErrors>({});
  // The pay button asks for the postal code when it is missing (the card's too).
  const billingProblem = useStore($billingProblem);
  // And for the state when it is left on "Choose…" (issue 33, item 6).
  const stateProblem = useStore($billingStateProblem);
  const errors: FieldErrors = {
    ...ownErrors,
    ...(billingProblem && !ownErrors.postalCode ? { postalCode: billingProblem } : {}),
    ...(stateProblem && !ownErrors.state ? { state: stateProblem } : {}),
  };
  // The address last sent, so a change of focus alone sends nothing again.
  const sent = useRef("");
  const regions = regionsOf(country);
  const us = country === "US";
  // What the pay button checks: the country, and its state chosen (a new country's list starts
  // on its default).
  useEffect(() => {
    // Another country's list: what was asked of the last one is not asked of this one.
    $billingStateProblem.set(null);
    const select = form.current?.elements.namedItem("state");
    $billingRegion.set(
      regionsOf(country)
        ? { country, state: select instanceof HTMLSelectElement ? select.value : "" }
        : null,
    );
  }, [country]);

  /** Saves the address once it is complete and differs from the one last sent. */
  const save = async (show: boolean) => {
    const el = form.current;
    if (!el) return;
    const data = new FormData(el);
    const address = {
      name: filledText(data, "name"),
      country: filledText(data, "country") ?? "US",
      state: regionsOf(filledText(data, "country") ?? "US") ? filledText(data, "state") : undefined,
      postalCode: filledText(data, "postalCode"),
    };
    $billingPostalCode.set(address.postalCode ?? "");
    const found = checkFields(el);
    // Only the fields already filled in are judged while the person is still typing.
    if (!show)
      for (const name of Object.keys(found)) if (!filledText(data, name)) delete found[name];
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (show) focusFirstProblem(el, found);
      return;
    }
    const complete =
      address.postalCode !== undefined && (!regionsOf(address.country) || address.state);
    const key = JSON.stringify(address);
    if (!complete || key === sent.current) return;
    sent.current = key;
    const result = await submitAddress.run(address);
    if (result.ok) {
      await refreshSummary();
      return;
    }
    sent.current = "";
    const answered = serverFieldErrors(result.error);
    setErrors(answered);
    focusFirstProblem(el, answered);
  };
  /** A save the pay button can wait for (stores/billing-address.ts). */
  const saveIfComplete = (show: boolean) => {
    const job = save(show);
    trackAddressSave(job);
    return job;
  };
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    if (target.name === "state") {
      $billingRegion.set({ country, state: target.value });
      if (target.value !== "") $billingStateProblem.set(null);
    }
    if (target.name === "postalCode") {
      $billingPostalCode.set(target.value.trim());
      if (target.value.trim() !== "") $billingProblem.set(null);
    }
  };
  const fieldsSaid = Object.keys(ownErrors).length > 0;
  const address = (
    <form
      ref={form}
      className="stack"
      aria-label="Billing address"
      noValidate
      onChange={onChange}
      onSubmit={(event) => {
        event.preventDefault();
        void saveIfComplete(true);
      }}
      // A select is chosen at once; a text field is done when the person leaves it.
      onBlur={() => void saveIfComplete(false)}
    >
      <label htmlFor="address-name">Name on the invoice</label>
      <input
        id="address-name"
        name="name"
        autoComplete="billing name"
        {...problemProps(errors, "name", "address-name")}
      />
      <FieldProblem errors={errors} name="name" id="address-name" />
      <label htmlFor="address-country">Country</label>
      <select
        id="address-country"
        name="country"
        autoComplete="billing country"
        value={country}
        onChange={(event) => {
          setCountry(event.target.value);
          // A country without a list (or with its state kept) may complete the address now.
          void saveIfComplete(false);
        }}
      >
        {COUNTRIES.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      {regions && (
        <>
          <label htmlFor="address-state">{us ? "State" : "State or region"}</label>
          <select
            // A new list for each country: nothing of another country's list stays chosen.
            key={country}
            id="address-state"
            name="state"
            autoComplete="billing address-level1"
            required
            defaultValue={us ? (user.userStateCode ?? "") : ""}
            onChange={() => void saveIfComplete(false)}
            {...problemProps(errors, "state", "address-state")}
          >
            <option value="">Choose…</option>
            {Object.entries(regions).map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
          <FieldProblem errors={errors} name="state" id="address-state" />
        </>
      )}
      <label htmlFor="address-postal">{postalCodeLabel(country)}</label>
      <input
        key={`postal-${us}`}
        id="address-postal"
        name="postalCode"
        autoComplete="billing postal-code"
        inputMode={us ? "numeric" : "text"}
        required
        maxLength={12}
        pattern={us ? "\\d{5}(-\\d{4})?" : undefined}
        data-problem={us ? "Enter a 5-digit ZIP code, such as 10001." : undefined}
        defaultValue={$billingPostalCode.get()}
        {...problemProps(errors, "postalCode", "address-postal")}
      />
      <FieldProblem errors={errors} name="postalCode" id="address-postal" />
      {/* Its space is kept (cart.css), so Pay below never moves as the note comes and goes. */}
      <div className="address-status" aria-live="polite">
        {state.status === "started" && <p className="note">Saving your address…</p>}
        {state.status === "failure" && !fieldsSaid && <Problem failure={state.error} />}
        {state.status === "success" && (
          <p role="status" className="note">
            Address saved: the total includes any tax.
          </p>
        )}
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
