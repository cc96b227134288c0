// The reminder before a one-time product (Flex) runs out (issue 33, item 7): Flex is paid once and
// renews never, so its holder is told ONE_TIME_REMINDER_DAYS ahead, with a way to buy again. Sent
// by the renewal worker's periodic pass (renewals.ts), once per end: under the account's lock the
// reminder is recorded as an event naming that end, with its e-mail, in one transaction.
import { hrefFor } from "../../domain/checkout/screens.ts";
import { ONE_TIME_REMINDER_DAYS } from "../../domain/renewals/next-renewal.ts";
import { DAY_MS } from "../clock.ts";
import { Events } from "../db/outbox.ts";
import { RenewalScans } from "../db/renewal-scans.ts";
import { tryWithAccountLock } from "./account-lock.ts";
import { oneTimeEndingMail } from "./renewal-emails.ts";
import type { RenewalDeps } from "./renewal-steps.ts";

/** Accounts reminded per pass; the next pass takes the rest. */
const BATCH = 100;

/** Reminds the holders of one-time products that run out soon; answers how many were. */
export async function remindOneTimeEnding(deps: RenewalDeps, holder: string): Promise<number> {
  const { db, clock, catalog, mailer, config } = deps;
  const codes = catalog.plans.filter((p) => !p.recurring).map((p) => p.code);
  const now = clock.now();
  const due = await RenewalScans.oneTimeEnding(db, {
    now,
    until: now + ONE_TIME_REMINDER_DAYS * DAY_MS,
    codes,
    limit: BATCH,
  });
  let sent = 0;
  for (const userId of due) {
    await tryWithAccountLock(
      deps,
      userId,
      async ({ user }) => {
        const sub = await RenewalScans.oneTimeEndingOf(db, userId, codes, now);
        if (sub === null) return; // bought again, ended or reminded meanwhile
        const plan = catalog.plans.find((p) => p.code === sub.productCode);
        const planName = plan?.name ?? sub.productCode;
        await db.transaction(async (tx) => {
          await Events.insert(tx, {
            kind: "reminder",
            name: "one_time_ending",
            userId,
            payload: { orderEnd: sub.orderEnd },
            now,
          });
          await mailer.queue(
            tx,
            oneTimeEndingMail(user, {
              planName,
              endsAt: sub.orderEnd,
              buyUrl: `${config.publicBaseUrl}${hrefFor("plans")}`,
            }),
          );
        });
        sent += 1;
      },
      `reminder:${holder}`,
    );
  }
  if (sent > 0) mailer.kick();
  return sent;
}
