// The plans screen (/cart#plans, /cart/plans?tab=…): the plans the account may buy, from the
// options call, each leading to its checkout. The purchase flows fill in the rest.

import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { hrefFor } from "../../domain/checkout/routes.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { $options, loadOptions } from "../../stores/products.ts";
import { $query } from "../../stores/router.ts";
import { $user } from "../../stores/user.ts";
import { Busy, Frame, Problem } from "./Frame.tsx";

const TABS = ["personal", "business", "education"] as const;

/** Spec 9: terms of 1, 6 or 12 months, labelled month, 6 months, year. */
function termLabel(months: number, recurring: boolean): string {
  if (!recurring) return "once";
  return months === 1 ? "per month" : months === 6 ? "per 6 months" : "per year";
}

export function PlansScreen({ title }: { title: string }) {
  const query = useStore($query);
  const state = useStore(loadOptions.$state);
  const options = useStore($options);
  const user = useStore($user);
  const tab = TABS.find((t) => t === query.tab) ?? TABS.find((t) => t === query.tier) ?? "personal";
  useEffect(() => {
    void loadOptions.run({ tier: tab });
  }, [tab]);
  return (
    <Frame title={title}>
      <nav aria-label="Plan families">
        <ul className="tabs">
          {TABS.map((t) => (
            <li key={t}>
              <a href={hrefFor("plans", { tab: t })} aria-current={t === tab ? "page" : undefined}>
                {t[0]?.toUpperCase()}
                {t.slice(1)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {state.status === "started" && <Busy label="Loading plans…" />}
      {state.status === "failure" && (
        <Problem failure={state.error} retry={() => loadOptions.run({ tier: tab })} />
      )}
      {options && state.status !== "started" && (
        <ul className="plan-list">
          {options.products.map((plan) => (
            <li key={plan.code} className="plan-item">
              <h2>{plan.name}</h2>
              <p>{plan.subTitle}</p>
              <p className="price">
                {formatUsd(plan.price)} {termLabel(plan.termDuration, plan.recurring)}
              </p>
              {plan.code === user.productCode ? (
                <p className="current">Your current plan</p>
              ) : (
                <a className="btn" href={hrefFor("checkout", { p: "buy", product: plan.code })}>
                  Choose {plan.name}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </Frame>
  );
}
