// The sandbox's PayPal approval page inside the hub's frame. That page is PayPal's stand-in, and
// like PayPal's own it never runs framed: the checkout opens it in a popup (or, where popups are
// refused, a new tab) and asks the server where the approval stands until the person has chosen,
// then continues in the frame: paypalCompleted for an approval, the checkout (plan, period,
// seats and address kept) told that nothing was charged for a cancellation. Asking the server
// works whatever the browser does to the popup's opener (a hub on another origin, a
// Cross-Origin-Opener-Policy) and to the frame's storage. Loaded only when the approval opens.
import { atom } from "nanostores";
import { $location, navigate } from "./router.ts";

/** The approval is open in another window: the payment form says so. */
export const $paypalWindowOpen = atom(false);

const POLL_MS = 1000;
/** A window closed without a choice is given this many more looks before it counts as cancelled. */
const CLOSED_LOOKS = 3;
/** PayPal's approval does not wait for ever either. */
const GIVE_UP_MS = 30 * 60_000;

function cancelledHere(): string {
  const search = new URLSearchParams($location.get().search);
  search.set("paypal", "cancelled");
  return `/cart?${search}#checkout`;
}

export async function openSandboxApproval(
  approvalUrl: string,
  win: Pick<Window, "open" | "setTimeout"> = window,
): Promise<void> {
  const url = new URL(approvalUrl, globalThis.location.href);
  url.searchParams.set("popup", "1");
  const popup =
    win.open(url.href, "paypal-sandbox", "popup,width=480,height=720") ??
    win.open(url.href, "_blank");
  if (!popup) {
    // Neither a popup nor a tab: the page cannot leave the frame, so nothing more can happen.
    navigate(cancelledHere());
    return;
  }
  $paypalWindowOpen.set(true);
  const id = url.searchParams.get("id") ?? "";
  const started = Date.now();
  let closedLooks = 0;
  try {
    while (Date.now() - started < GIVE_UP_MS) {
      await new Promise((done) => win.setTimeout(done, POLL_MS));
      const answer = await fetch(`/dev/paypal/approve/status?${new URLSearchParams({ id })}`, {
        credentials: "same-origin",
      }).catch(() => null);
      const status = answer?.ok
        ? ((await answer.json()) as { state: string; next: string | null })
        : null;
      if (status?.next) {
        try {
          popup.close();
        } catch {
          // Another origin's policy may have taken the handle: the page says it may be closed.
        }
        navigate(status.next);
        return;
      }
      if (popup.closed) closedLooks += 1;
      if (closedLooks > CLOSED_LOOKS) break;
    }
    navigate(cancelledHere());
  } finally {
    $paypalWindowOpen.set(false);
  }
}
