// "Buying for an organisation" (issue 23 item 3): the organisation's name, its VAT or tax id and
// its street address, printed on the invoice. An EU VAT id is checked by the server (format and
// check digits); an EU business in another member state than the seller's then pays no VAT
// (reverse charge), so the summary is priced again once it is saved. Optional: closed unless
// details were saved before. On the account page it can also issue earlier invoices again.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect } from "react";
import type { BillingDetailsBody } from "../../contract/invoices.ts";
import { loadBillingDetails, saveBillingDetails } from "../../stores/billing.ts";
import { filledText } from "../forms/form-values.ts";
import { Problem } from "../screens/Frame.tsx";

/** A labelled text field of the organisation's details, showing the saved value. */
function TextField(props: {
  id: string;
  label: string;
  name: string;
  autoComplete: string;
  maxLength: number;
  value: string | null | undefined;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        defaultValue={props.value ?? ""}
      />
    </>
  );
}

export function OrganisationSection({
  place = "checkout",
  onSaved,
}: {
  place?: "checkout" | "account";
  onSaved?: () => void | Promise<void>;
}) {
  const loaded = useStore(loadBillingDetails.$state);
  const saving = useStore(saveBillingDetails.$state);
  useEffect(() => {
    void loadBillingDetails.run();
  }, []);
  // Until the saved details have come (or failed to), the fields take no typing: the form is
  // mounted again with them once they arrive, which would throw away what was typed meanwhile.
  const settled = loaded.status === "success" || loaded.status === "failure";
  const current =
    saving.status === "success" ? saving.value : loaded.status === "success" ? loaded.value : null;
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input: BillingDetailsBody = {};
    for (const key of ["organisation", "taxId", "street", "city"] as const) {
      const value = filledText(form, key);
      if (value !== undefined) input[key] = value;
    }
    if (place === "account") input.reissue = form.get("reissue") === "on";
    // At checkout, onSaved prices the summary again: a VAT id may take the VAT off.
    if ((await saveBillingDetails.run(input)).ok) await onSaved?.();
  };
  const id = (name: string) => `${place}-org-${name}`;
  return (
    <details className="stack organisation" open={Boolean(current?.organisation || current?.taxId)}>
      <summary>Buying for an organisation</summary>
      <form
        className="stack"
        onSubmit={onSubmit}
        aria-label="Organisation"
        // Re-mounted once the saved details arrive, so the fields show them.
        key={loaded.status === "success" ? "loaded" : "empty"}
      >
        <fieldset className="stack bare" disabled={!settled}>
          <TextField
            id={id("name")}
            label="Organisation name"
            name="organisation"
            autoComplete="organization"
            maxLength={200}
            value={current?.organisation}
          />
          <label htmlFor={id("tax")}>VAT or tax id</label>
          <input
            id={id("tax")}
            name="taxId"
            maxLength={40}
            aria-describedby={id("tax-hint")}
            defaultValue={current?.taxId ?? ""}
          />
          <p id={id("tax-hint")} className="hint">
            EU businesses: the VAT id with its country prefix, such as DE123456789.
          </p>
          <TextField
            id={id("street")}
            label="Street address"
            name="street"
            autoComplete="street-address"
            maxLength={200}
            value={current?.street}
          />
          <TextField
            id={id("city")}
            label="City"
            name="city"
            autoComplete="address-level2"
            maxLength={100}
            value={current?.city}
          />
          {place === "account" && (
            <label>
              <input type="checkbox" name="reissue" /> Issue my earlier invoices again with these
              details (each is cancelled by a credit note first)
            </label>
          )}
          <button type="submit" className="btn" disabled={saving.status === "started"}>
            {saving.status === "started" ? "Saving…" : "Save organisation"}
          </button>
        </fieldset>
        <div aria-live="polite">
          {saving.status === "failure" && <Problem failure={saving.error} />}
          {saving.status === "success" && (
            <p role="status">
              {saving.value.reverseCharge
                ? "Saved. Reverse charge: no VAT is added; your organisation accounts for it."
                : "Saved: your invoices will name your organisation."}
              {saving.value.reissued.length > 0 &&
                ` Issued again: ${saving.value.reissued.join(", ")}.`}
            </p>
          )}
        </div>
      </form>
    </details>
  );
}
