// The last invoice (spec 3.6) for the completed screens: loaded with their chunk, not on the
// first load of /cart. Its state lives in the payment store (invoice, invoiceLoading).
import { endpoints } from "../contract/endpoints.ts";
import { invoiceSummary } from "../domain/account/invoice.ts";
import { api } from "./api.ts";
import { operation } from "./operation.ts";
import { patchPayment } from "./payment.ts";

/** The last invoice: an invoice must have a number or id, an empty PayPal list fails (spec 5). */
export const loadInvoice = operation(
  "invoice",
  async (processor: "cc" | "paypal") => {
    const endpoint = processor === "paypal" ? endpoints.paypalInvoices : endpoints.invoices;
    const result = await api().call(endpoint, { params: { page: 1 } });
    if (!result.ok) return result;
    const summary = invoiceSummary(result.value, processor);
    if (!summary.ok) {
      return {
        ok: false as const,
        error: { kind: "http" as const, message: summary.message, status: 404 },
      };
    }
    return { ok: true as const, value: summary.value, status: result.status };
  },
  {
    onStart() {
      patchPayment({ invoiceLoading: true });
    },
    onSuccess(invoice) {
      patchPayment({ invoice, invoiceLoading: false });
    },
    onFailure() {
      patchPayment({ invoiceLoading: false });
    },
  },
);
