// A coupon: verified first (the campaign it belongs to, or the team it joins), then applied to the
// account; the summary is priced again with it. Campaign windows and targeting are the server's.
import { useStore } from "@nanostores/react";
import type { SubmitEvent } from "react";
import { checkCoupon, dropCoupon, redeemCoupon } from "../../stores/checkout.ts";
import { $payment, applyCoupon, removeCoupon, verifyCoupon } from "../../stores/payment.ts";
import { Problem } from "../screens/Frame.tsx";

export function CouponForm() {
  const verified = useStore(verifyCoupon.$state);
  const applied = useStore(applyCoupon.$state);
  const removing = useStore(removeCoupon.$state);
  // The coupon the summary was priced with: the person can always take it off (issue 18, item 10).
  const onAccount = useStore($payment).orderSummary?.coupon ?? null;
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = new FormData(event.currentTarget).get("coupon");
    if (typeof code === "string" && code.trim() !== "") void checkCoupon(code);
  };
  const found = verified.status === "success" ? verified.value : null;
  return (
    <form className="stack" onSubmit={onSubmit} aria-label="Coupon">
      <label htmlFor="checkout-coupon">Coupon code</label>
      <input id="checkout-coupon" name="coupon" autoComplete="off" spellCheck={false} />
      <button type="submit" className="btn" disabled={verified.status === "started"}>
        {verified.status === "started" ? "Checking…" : "Check coupon"}
      </button>
      <div aria-live="polite">
        {verified.status === "failure" && <Problem failure={verified.error} />}
        {found && applied.status !== "success" && (
          <p>
            {found.instanceName
              ? `Coupon ${found.coupon} joins the team workspace ${found.instanceName}.`
              : `Coupon ${found.coupon}: ${found.campaign?.name ?? "a discount"}.`}{" "}
            <button
              type="button"
              className="btn"
              disabled={applied.status === "started"}
              onClick={() => void redeemCoupon(found.coupon)}
            >
              {applied.status === "started" ? "Applying…" : "Apply coupon"}
            </button>
          </p>
        )}
        {applied.status === "failure" && <Problem failure={applied.error} />}
        {removing.status === "failure" && <Problem failure={removing.error} />}
        {applied.status === "success" && (
          <p role="status">
            {applied.value.reason === "joined_instance"
              ? `You joined ${applied.value.instanceName ?? "the team"}.`
              : "Coupon applied. The summary shows the new price."}
          </p>
        )}
      </div>
      {onAccount && (
        <p>
          {onAccount.applied
            ? `Coupon ${onAccount.code} is applied.`
            : `Coupon ${onAccount.code} is not applied to this purchase.`}{" "}
          <button
            type="button"
            className="btn"
            disabled={removing.status === "started"}
            onClick={() =>
              void dropCoupon().then(() => document.getElementById("checkout-coupon")?.focus())
            }
          >
            {removing.status === "started" ? "Removing…" : "Remove coupon"}
          </button>
        </p>
      )}
    </form>
  );
}
