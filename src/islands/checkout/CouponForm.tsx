// A coupon: one field and one Apply (issue 34, item 2). Apply verifies the code (the campaign it
// belongs to, or the team it joins) and, for a campaign's coupon, applies it to the account at
// once; the summary is priced again with it. Then one message: applied with what it saves, or
// why not. Joining a team is asked first, as it changes whose plan covers the account. Remove is
// a quiet link. Campaign windows and targeting are the server's.
import { useStore } from "@nanostores/react";
import type { SubmitEvent } from "react";
import { formatUsd } from "../../domain/pricing/money.ts";
import { checkCoupon, dropCoupon, redeemCoupon } from "../../stores/checkout.ts";
import { $payment, applyCoupon, removeCoupon, verifyCoupon } from "../../stores/payment.ts";
import { Problem } from "../screens/Frame.tsx";

export function CouponForm() {
  const verified = useStore(verifyCoupon.$state);
  const applied = useStore(applyCoupon.$state);
  const removing = useStore(removeCoupon.$state);
  // The coupon the summary was priced with: the person can always take it off (issue 18, item 10).
  const summary = useStore($payment).orderSummary;
  const onAccount = summary?.coupon ?? null;
  const saving = (summary?.lines ?? []).reduce(
    (sum, line) => (line.kind === "discount" ? sum - line.amount : sum),
    0,
  );
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = new FormData(event.currentTarget).get("coupon");
    if (typeof code !== "string" || code.trim() === "") return;
    applyCoupon.reset();
    const found = await checkCoupon(code);
    if (found.ok && !found.value.instanceName) await redeemCoupon(found.value.coupon);
  };
  const found = verified.status === "success" ? verified.value : null;
  const team = found?.instanceName ? found : null;
  const working = verified.status === "started" || applied.status === "started";
  return (
    <form className="stack" onSubmit={(event) => void onSubmit(event)} aria-label="Coupon">
      <label htmlFor="checkout-coupon">Coupon code</label>
      <div className="coupon-row">
        <input id="checkout-coupon" name="coupon" autoComplete="off" spellCheck={false} />
        <button type="submit" className="btn secondary" disabled={working}>
          {working ? "Applying…" : "Apply"}
        </button>
      </div>
      <div aria-live="polite">
        {verified.status === "failure" && <Problem failure={verified.error} />}
        {applied.status === "failure" && <Problem failure={applied.error} />}
        {removing.status === "failure" && <Problem failure={removing.error} />}
        {team && applied.status !== "success" && (
          <p>
            Coupon {team.coupon} joins the team workspace {team.instanceName}.{" "}
            <button
              type="button"
              className="btn"
              disabled={working}
              onClick={() => void redeemCoupon(team.coupon)}
            >
              Join {team.instanceName}
            </button>
          </p>
        )}
        {applied.status === "success" && applied.value.reason === "joined_instance" && (
          <p role="status">You joined {applied.value.instanceName ?? "the team"}.</p>
        )}
      </div>
      {onAccount && (
        <p className={onAccount.applied ? "notice success" : "notice"}>
          {onAccount.applied
            ? `Coupon ${onAccount.code} applied${saving > 0 ? `: you save ${formatUsd(saving)}` : ""}.`
            : `Coupon ${onAccount.code} is not applied to this purchase.`}{" "}
          <button
            type="button"
            className="link"
            disabled={removing.status === "started"}
            onClick={() =>
              void dropCoupon().then(() => document.getElementById("checkout-coupon")?.focus())
            }
          >
            {removing.status === "started" ? "Removing…" : "Remove"}
            <span className="vh"> coupon</span>
          </button>
        </p>
      )}
    </form>
  );
}
