// The static pages' exposure beacon (issue 36, decision 0089): the page names the running
// experiments whose prices it showed; the server works the group out itself from the visitor id
// (the account's, else the cookie's) and records each exposure once. Ids of experiments that do
// not run now (a page cached from an older release) are passed over.
import { api } from "../../contract/index.ts";
import { runningExperiments } from "../../domain/experiments/assignment.ts";
import type { Routes } from "../routing.ts";
import { pricedAccountOf } from "./helpers.ts";

export function experimentRoutes(routes: Routes): void {
  routes.api(api.experimentExposures, async (ctx, { body }) => {
    const named = new Set(body.experiments);
    const plans = runningExperiments(ctx.app.catalog, ctx.now())
      .filter((x) => named.has(x.id))
      .flatMap((x) => x.plans);
    if (plans.length > 0) await pricedAccountOf(ctx, () => plans);
    return { kind: "empty", status: 204 } as const;
  });
}
