// The trial screen: the checkout with p=trial (/cart?p=trial&product=…#checkout). It names the
// trial and its length, asks a business trial for its workspace name, and starts the trial with
// one press ("Start free trial"); a plan without a trial offers to buy it instead. Everything
// runs in the stores (stores/trial.ts).

import { useStore } from "@nanostores/react";
import type { SubmitEvent } from "react";
import { useEffect } from "react";
import { trialOffered } from "../../domain/account/trials.ts";
import { managedReason } from "../../domain/checkout/purchase.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { startFreeTrial } from "../../stores/payment.ts";
import { $productInfo } from "../../stores/products.ts";
import { $query } from "../../stores/router.ts";
import { loadTrialOffer, openTrial, startTrial } from "../../stores/trial.ts";
import { $user } from "../../stores/user.ts";
import { ManagedNotice } from "../checkout/ManagedNotice.tsx";
import { Busy, Frame, Problem } from "./Frame.tsx";

export function TrialScreen() {
  const query = useStore($query);
  const user = useStore($user);
  const offer = useStore(loadTrialOffer.$state);
  const state = useStore(startFreeTrial.$state);
  useEffect(openTrial, []);
  const busy = state.status === "started";
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = new FormData(event.currentTarget).get("instanceName");
    void startTrial(typeof name === "string" ? name : "");
  };
  const productInfo = useStore($productInfo);
  const managed = managedReason(user);
  const title = "Start your free trial";
  if (managed) {
    return (
      <Frame title={title}>
        <ManagedNotice reason={managed} />
      </Frame>
    );
  }
  if (offer.status === "failure") {
    return (
      <Frame title={title}>
        <Problem failure={offer.error} retry={openTrial} />
      </Frame>
    );
  }
  if (offer.status !== "success") {
    return (
      <Frame title={title}>
        <Busy label="Loading the trial…" />
      </Frame>
    );
  }
  const { target, trial } = offer.value;
  if (!target) {
    return (
      <Frame title={title}>
        <p>This plan has no free trial.</p>
        {query.productCode && (
          <a className="btn" href={hrefFor("checkout", { p: "buy", product: query.productCode })}>
            Buy it instead
          </a>
        )}
        <a className="btn secondary" href={hrefFor("plans")}>
          See the plans
        </a>
      </Frame>
    );
  }
  // One trial per person (domain/account/trials.ts): an expired trial, a running one or a paying
  // account is offered the plans, never "Start free trial".
  const offered = trialOffered({
    hadTrial: productInfo?.previousTrialOwner ?? false,
    orderState: user.orderState,
    isTrial: user.isTrial,
    isExpiredTrial: user.isExpiredTrial,
    managed: false,
  });
  // (Not right after this screen started one: the account reads as on trial until it moves on.)
  if (user.isAuth && !offered && state.status !== "success" && !busy) {
    return (
      <Frame title={title}>
        <p data-testid="trial-unavailable">
          {user.isExpiredTrial
            ? "Your free trial has ended. Choose a plan to keep your projects."
            : "A free trial is not available for this account. Choose a plan to continue."}
        </p>
        {query.productCode && (
          <a className="btn" href={hrefFor("checkout", { p: "buy", product: query.productCode })}>
            Buy it instead
          </a>
        )}
        <a className="btn secondary" href={hrefFor("plans")}>
          See the plans
        </a>
      </Frame>
    );
  }
  return (
    <Frame title={title}>
      {trial && (
        <p data-testid="trial-offer">
          {trial.name}: {trial.trialDuration} days free. No card needed, and nothing is charged when
          it ends.
        </p>
      )}
      <form className="stack" onSubmit={onSubmit} noValidate>
        {target.asksWorkspace && (
          <>
            <label htmlFor="trial-workspace">Name of your team's workspace (optional)</label>
            <input
              id="trial-workspace"
              name="instanceName"
              autoComplete="organization"
              maxLength={100}
              aria-describedby="trial-workspace-help"
            />
            <p id="trial-workspace-help" className="note">
              Your team joins it by invitation. You can rename it later.
            </p>
          </>
        )}
        {state.status === "failure" && <Problem failure={state.error} />}
        {state.status === "failure" && state.error.code === "email_not_verified" && (
          // A trial starts once the address is verified: the activation step, then back here.
          <a className="btn secondary" href={hrefFor("email-activation", {}, { via: "hash" })}>
            Verify my e-mail address
          </a>
        )}
        <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
          {busy ? "Starting your trial…" : "Start free trial"}
        </button>
        {busy && <Busy label="Starting your trial…" />}
      </form>
    </Frame>
  );
}
