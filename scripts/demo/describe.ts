// The census as the lines the script prints at the end.
import type { Census } from "./census.ts";
import type { RenewalCount } from "./season-run.ts";

const money = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function describeCensus(census: Census, renewals: RenewalCount): string[] {
  const orders = Object.entries(census.orders)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  const subscriptions = Object.entries(census.subscriptions)
    .map(([state, n]) => `${n} ${state}`)
    .join(", ");
  const lines = [
    `  accounts: ${census.users}`,
    `  orders: ${orders || "none"} (${money(census.ordersTotalCents)} in all); invoices: ${census.invoices}`,
    `  subscriptions by state: ${subscriptions || "none"}`,
    `  renewal passes: ${renewals.charged} charged, ${renewals.failed} declined, ${renewals.lapsed} lapsed, ${renewals.ended} ended`,
  ];
  for (const [experiment, groups] of Object.entries(census.experimentEvents)) {
    lines.push(`  experiment ${experiment}:`);
    for (const [group, kinds] of Object.entries(groups)) {
      const counts = Object.entries(kinds)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(", ");
      lines.push(`    ${group}: ${counts}`);
    }
  }
  if (Object.keys(census.experimentEvents).length === 0) {
    lines.push("  experiment events: none (does this server record them?)");
  }
  return lines;
}
