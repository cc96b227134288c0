// PayPal's JS SDK buttons (PAYPAL_CLIENT_ID configured): the buttons' createOrder asks our server
// for the approval, with the same paypalsubscription call (and href) as the sandbox's approval
// page, and their onApprove settles it through the server's approval return, which writes the
// order once and redirects to paypalCompleted (the page navigation the sandbox page makes too).
// Only the PayPal buttons chunk imports this module.
import { startPaypal } from "./checkout.ts";

/** Posts the approval as a page navigation, so the browser follows the server's redirect. */
export const approvalForm = {
  submit(action: string, fields: Record<string, string>): void {
    const form = document.createElement("form");
    form.method = "post";
    form.action = action;
    form.hidden = true;
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  },
};

/**
 * PayPal's createOrder: the id of the approval our server created for the summary on screen. A
 * refusal (price_changed, account_busy, ...) is on startPaypal's state for the form to show; the
 * rejection tells PayPal's buttons not to open.
 */
export async function createPaypalOrder(): Promise<string> {
  const result = await startPaypal.run(true);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.approvalId;
}

/**
 * PayPal's onApprove: settles the approval PayPal approved at the server's approval return. False
 * when it is not the approval this page created (nothing is sent).
 */
export function approvePaypalOrder(orderId: string): boolean {
  const state = startPaypal.$state.get();
  if (state.status !== "success" || state.value.approvalId !== orderId) return false;
  // Only the path: the approval is settled at this site's own approval return, whatever origin
  // the answer's address names (the base is a placeholder for a path-only address).
  const { pathname } = new URL(state.value.approvalUrl, "http://localhost");
  approvalForm.submit(pathname, { id: orderId, action: "approve" });
  return true;
}

/** The last PayPal attempt failed at our server (its failure is on startPaypal's state). */
export function serverRefusedPaypal(): boolean {
  return startPaypal.$state.get().status === "failure";
}
