// What PayPal's webhook events share (paypal-webhooks.ts dispatches them, paypal-money-back.ts
// applies refunds and reversals): the event's shape and fields, its claim (applied once), and the
// account's lock a change runs under.
import { centsOf } from "../../domain/paypal/terms.ts";
import type { AppDeps } from "../context.ts";
import type { Queryable } from "../db/db.ts";
import type { User } from "../db/users.ts";
import { claimWebhookEvent } from "../db/webhook-events.ts";
import type { PaypalClient } from "../payments/paypal-client.ts";
import { tryWithAccountLock } from "./account-lock.ts";
import type { ConfirmResult } from "./paypal-subscriptions.ts";

/** What applying an event needs (a kept event is applied without a delivery to verify). */
export type WebhookDeps = Pick<
  AppDeps,
  "db" | "catalog" | "clock" | "log" | "mailer" | "config"
> & {
  paypal: PaypalClient;
};

export type WebhookOutcome =
  | { status: 200; applied: string }
  | { status: 400; reason: "not_verified" | "invalid" }
  | { status: 503; reason: string };

const PROVIDER = "paypal";

export type PaypalEvent = { id: string; event_type: string; resource: Record<string, unknown> };

export function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 && value.length <= 200 ? value : undefined;
}

export function amountOf(resource: Record<string, unknown>): number | null {
  const amount = resource.amount as { total?: unknown; value?: unknown } | undefined;
  const value = str(amount?.total) ?? str(amount?.value);
  const cents = centsOf(value);
  return cents === null ? null : Math.abs(cents);
}

/** Claims the event alone (events that change nothing here, or whose change is idempotent). */
export async function claimOnly(deps: WebhookDeps, event: PaypalEvent, applied: string) {
  const fresh = await deps.db.transaction((tx) => claim(tx, deps, event));
  return { status: 200 as const, applied: fresh ? applied : "duplicate" };
}

export function claim(tx: Queryable, deps: WebhookDeps, event: PaypalEvent): Promise<boolean> {
  return claimWebhookEvent(tx, {
    provider: PROVIDER,
    eventId: event.id,
    eventType: event.event_type,
    at: deps.clock.now(),
  });
}

export function retryOf(result: ConfirmResult): WebhookOutcome | null {
  if (result.kind === "busy") return { status: 503, reason: "account busy" };
  if (result.kind === "unavailable") return { status: 503, reason: "PayPal unavailable" };
  return null;
}

/** Runs `work` under the account's lock; a busy account is a 503 (PayPal delivers again). */
export async function underLock(
  deps: WebhookDeps,
  user: User,
  work: (fresh: User) => Promise<WebhookOutcome>,
): Promise<WebhookOutcome> {
  const outcome = await tryWithAccountLock(deps, user.id, ({ user: fresh }) => work(fresh));
  if (!outcome.locked)
    return outcome.reason === "busy"
      ? { status: 503, reason: "account busy" }
      : { status: 200, applied: "no account" };
  return outcome.value;
}
