// The plans screen (/cart#plans, /cart/plans?tab=…): the plans the account may buy, from the
// options call, monthly or annual, the current plan marked (currentPlan and the essentials flags),
// filtered as the URL asks (spec 2.4 and 5: premium with availableProducts or productCodes, and
// resolution 720 / 1080 / 2160), each leading to its checkout. Managed accounts are told why they
// cannot buy here and whom to ask.

import { useStore } from "@nanostores/react";
import { lazy, useEffect } from "react";
import { trialOffered } from "../../domain/account/trials.ts";
import { planCards } from "../../domain/checkout/plan-cards.ts";
import { managedReason, planStatus } from "../../domain/checkout/purchase.ts";
import { hrefFor, SCREEN_TITLES, toSearch } from "../../domain/checkout/screens.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { filterPlans } from "../../domain/pricing/plan-filters.ts";
import { premiumTemplatesLine } from "../../domain/pricing/premium-templates.ts";
import { type RequestMode, termLabel, termMonthsFromCode } from "../../domain/pricing/terms.ts";
import { $options, $productInfo, loadOptions } from "../../stores/products.ts";
import { $location, $query, navigate } from "../../stores/router.ts";
import { reporter } from "../../stores/telemetry.ts";
import { $user } from "../../stores/user.ts";
import { ManagedNotice } from "../checkout/ManagedNotice.tsx";
import { ReportedLink } from "../chrome/HubLinks.tsx";
import { useLoadedStore } from "../use-loaded-store.ts";
import { Busy, Frame, Problem } from "./Frame.tsx";

// Only a visitor on the sign-up tab needs the sign-up form: its chunk (and the field errors')
// is not loaded with the plans (issue 22 item 12: two requests and their start-up work fewer).
const SignUpScreen = lazy(async () => ({
  default: (await reporter.watchChunk(import("./SessionScreens.tsx"), { name: "session" }))
    .SignUpScreen,
}));

const TABS = ["personal", "business", "education"] as const;
const FREE_CODE = "wv_free";

function priceText(price: number, code: string, recurring: boolean): string {
  if (price === 0) return "Free";
  if (!recurring) return `${formatUsd(price)} once`;
  return `${formatUsd(price)} per ${termLabel(termMonthsFromCode(code))}`;
}

/** The same URL with one parameter changed (filters and other parameters are kept). */
function withParam(search: string, key: string, value: string): string {
  const params = new URLSearchParams(search);
  params.set(key, value);
  return toSearch(params);
}

export function PlansScreen({ title }: { title: string }) {
  const query = useStore($query);
  const location = useStore($location);
  // The plans' arrival shows the list: rendered in slices (use-loaded-store.ts).
  const state = useLoadedStore(loadOptions.$state);
  const options = useLoadedStore($options);
  const user = useStore($user);
  const productInfo = useLoadedStore($productInfo);
  const tab = TABS.find((t) => t === query.tab) ?? TABS.find((t) => t === query.tier) ?? "personal";
  // The period the URL asks for, else the account's own: a monthly subscriber sees the monthly
  // plans, their current one marked.
  const asked = new URLSearchParams(location.search).get("mode");
  const ownMode: RequestMode =
    user.isAuth && user.productCode.endsWith("_1m") ? "monthly" : "annual";
  const mode: RequestMode = asked === "monthly" || asked === "annual" ? asked : ownMode;
  useEffect(() => {
    void loadOptions.run({ tier: tab });
  }, [tab]);
  // The sign-up tab (spec 2.5: where a visitor who came to buy or try a plan is sent) signs the
  // visitor up, then goes on to the plan they chose.
  if (query.tab === "signup" && !user.isAuth) return <SignUpScreen title={SCREEN_TITLES.signup} />;
  const managed = user.isAuth ? managedReason(user) : null;
  // A trial is offered to visitors and to accounts that are not paying and never had one, an
  // expired trial included (the server's rule: domain/account/trials.ts).
  const mayTry =
    !user.isAuth ||
    trialOffered({
      hadTrial: productInfo?.previousTrialOwner ?? false,
      orderState: user.orderState,
      isTrial: user.isTrial,
      isExpiredTrial: user.isExpiredTrial,
      managed: managed !== null,
    });
  const allowed = query.availableProducts.length > 0 ? query.availableProducts : query.productCodes;
  const shown = options
    ? filterPlans(planCards(options.products, mode), {
        hasPremiumTemplates: query.premium,
        allowed: allowed.length > 0 ? allowed : null,
        resolution: query.resolution,
      })
    : [];
  const here = `${location.pathname}`;
  const hashRoute = location.hash === "#plans";
  const link = (search: string) => `${here}${search}${hashRoute ? "#plans" : ""}`;
  return (
    <Frame title={title}>
      {managed && <ManagedNotice reason={managed} />}
      <nav aria-label="Plan families">
        <ul className="tabs">
          {TABS.map((t) => (
            <li key={t}>
              <a
                href={link(withParam(location.search, "tab", t))}
                aria-current={t === tab ? "page" : undefined}
              >
                {t[0]?.toUpperCase()}
                {t.slice(1)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <fieldset className="billing-mode">
        <legend>Billing period</legend>
        {(["monthly", "annual"] as const).map((m) => (
          <label key={m}>
            <input
              type="radio"
              name="plans-mode"
              checked={mode === m}
              onChange={() =>
                navigate(link(withParam(location.search, "mode", m)), { replace: true })
              }
            />{" "}
            {m === "monthly" ? "Monthly" : "Annual"}
          </label>
        ))}
      </fieldset>
      {state.status === "started" && <Busy label="Loading plans…" />}
      {state.status === "failure" && (
        <Problem failure={state.error} retry={() => loadOptions.run({ tier: tab })} />
      )}
      {options && state.status !== "started" && (
        <ul className="plan-list">
          {shown.map((plan) => {
            // A signed-out visitor has no plan: the default free code is nobody's current plan.
            const status = user.isAuth ? planStatus(plan, user.productCode) : "available";
            const templates = query.premium ? premiumTemplatesLine(plan) : null;
            return (
              <li key={plan.code} className="plan-item" data-plan={plan.code}>
                <h2>{plan.name}</h2>
                <p>{plan.subTitle}</p>
                <p className="price">{priceText(plan.price, plan.code, plan.recurring)}</p>
                {templates && (
                  <p>
                    {templates.text}
                    {templates.note && <span className="note"> ({templates.note})</span>}
                  </p>
                )}
                {status === "current" && <p className="current">Your current plan</p>}
                {status === "current-with-essentials" && (
                  <p className="current">Your current plan, with Essentials</p>
                )}
                {plan.code === FREE_CODE && !user.isAuth && (
                  <ReportedLink
                    className="btn"
                    event="clicked_get_started"
                    href={hrefFor("sign-up", { tier: tab })}
                  >
                    Get started
                  </ReportedLink>
                )}
                {plan.code === FREE_CODE && user.isAuth && status === "available" && !managed && (
                  // Moving to the free plan is the account page's "Convert to free", behind its
                  // confirmation.
                  <ReportedLink
                    className="btn secondary"
                    event="clicked_back_to_free"
                    href={hrefFor("home")}
                  >
                    Back to free
                  </ReportedLink>
                )}
                {status === "available" && !managed && plan.code !== FREE_CODE && (
                  <a
                    className="btn"
                    href={hrefFor(
                      "checkout",
                      { p: "buy", product: plan.code, tier: plan.tier },
                      { via: "hash" },
                    )}
                  >
                    Choose {plan.name}
                  </a>
                )}
                {status === "available" && mayTry && plan.trialDuration > 0 && (
                  <a
                    className="btn secondary"
                    href={hrefFor(
                      "checkout",
                      { p: "trial", product: plan.code, tier: plan.tier },
                      { via: "hash" },
                    )}
                  >
                    Try {plan.name} free for {plan.trialDuration} days
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Frame>
  );
}
