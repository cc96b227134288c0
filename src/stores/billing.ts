// The buyer's business details (issue 23: "buying for an organisation", at checkout and on the
// account page) and the account's invoices and credit notes. Loaded only by the components that
// show them (their chunks load after the checkout screen), so the first screens carry none of it.
import { routes as endpoints } from "../api/contract/routes.ts";
import { api } from "./api.ts";
import { refreshSummary } from "./checkout.ts";
import { operation } from "./operation.ts";

export type BillingDetailsInput = {
  organisation?: string;
  taxId?: string;
  street?: string;
  city?: string;
  reissue?: boolean;
};

export const loadBillingDetails = operation("billingDetails", () =>
  api().call(endpoints.billingDetails),
);

export const saveBillingDetails = operation("billingDetails", (input: BillingDetailsInput) =>
  api().call(endpoints.saveBillingDetails, { body: input }),
);

/** Saves the details at checkout: a VAT id may change the tax, so the summary is priced again. */
export async function saveCheckoutDetails(input: BillingDetailsInput): Promise<boolean> {
  const result = await saveBillingDetails.run(input);
  if (result.ok) await refreshSummary();
  return result.ok;
}

export const loadInvoiceDocuments = operation("invoiceDocuments", () =>
  api().call(endpoints.invoiceDocuments),
);
