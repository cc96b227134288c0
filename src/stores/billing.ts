// The buyer's business details (issue 23: "buying for an organisation", at checkout and on the
// account page) and the account's invoices and credit notes. Loaded only by the components that
// show them (their chunks load after the checkout screen), so the first screens carry none of it.
// Nothing here imports the checkout's store: the account page uses this too, and the checkout
// prices its summary again itself once details are saved (AddressForm's onSaved).
import { endpoints } from "../contract/endpoints.ts";
import type { BillingDetailsBody } from "../contract/invoices.ts";
import { api } from "./api.ts";
import { operation } from "./operation.ts";
import { loadProducts } from "./products.ts";

export const loadBillingDetails = operation("billingDetails", () =>
  api().call(endpoints.billingDetails),
);

export const saveBillingDetails = operation("billingDetails", (input: BillingDetailsBody) =>
  api().call(endpoints.saveBillingDetails, { body: input }),
);

export const loadInvoiceDocuments = operation("invoiceDocuments", () =>
  api().call(endpoints.invoiceDocuments),
);

/**
 * After the details change on the account page: the invoices (some may be issued again) and the
 * account's next renewal amount (a VAT id may take the VAT off it) are read again.
 */
export async function reloadAfterDetailsSaved(): Promise<void> {
  await Promise.all([loadInvoiceDocuments.run(), loadProducts.run()]);
}
