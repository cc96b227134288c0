// The sandbox's stand-in for PayPal's approval page (handlers/paypal.ts), answered as its form
// posts it.
import { PAYPAL_APPROVAL_PATH } from "../services/paypal-subscriptions.ts";
import type { TestClient } from "./harness.ts";

/** The customer's click on the stand-in page: "Approve and pay" or "Cancel". The raw answer. */
export function answerSandboxApproval(
  client: TestClient,
  approvalId: string,
  action: "approve" | "cancel" = "approve",
): Promise<Response> {
  return client.fetch(PAYPAL_APPROVAL_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ id: approvalId, action }).toString(),
  });
}
