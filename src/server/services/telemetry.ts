// What the browser may store through the analytics and error-report calls (instrumentation,
// HubSpot events, TrackJS reports): anyone can send them, signed in or not, so each is bounded
// three ways, or one client could fill the disk (issue 7: 500 posts of 63 KB grew the database
// by 30 MB in 0.4 s).
//
// - Size: an event is refused (413 telemetry_too_large) when its stored JSON is over
//   maxEventBytes, far below the 64 KB body cap. Refused, not truncated: the server cannot tell
//   which part of an arbitrary report matters, a cut JSON text is no longer JSON, and the sender
//   (our own checkout, whose events are well under 1 KB and reports a few KB) knows its format
//   and can shorten it.
// - Rate: per client address and per signed-in account (rules telemetryPerIp and
//   telemetryPerAccount), 429 with Retry-After.
// - Retention: at most maxRowsPerKind events of each telemetry kind; the oldest are deleted in
//   the transaction that inserts a new one. A ring rather than a refusal when full: recent
//   reports matter most, and a flood cannot stop legitimate events from being recorded. Other
//   events of the table (cancellation records) are never counted or deleted here.
//
// Worst case kept: 3 kinds × 5,000 rows × 8 KB ≈ 120 MB; typical events are under 1 KB (≈ 15 MB).
// The hourly clean-up in main.ts also deletes events older than 30 days.
import type { Ctx } from "../context.ts";
import type { Db } from "../db/db.ts";
import { Events, type TelemetryKind } from "../db/outbox.ts";
import type { User } from "../db/users.ts";

export type TelemetryPolicy = { maxEventBytes: number; maxRowsPerKind: number };

export const TELEMETRY_POLICY: TelemetryPolicy = {
  maxEventBytes: 8 * 1024,
  maxRowsPerKind: 5_000,
};

export type TelemetryEvent = {
  kind: TelemetryKind;
  name: string;
  userId: number | null;
  payload: unknown;
};

/** Spends one unit of the client's and the account's telemetry budgets, else 429. */
export async function limitTelemetry(ctx: Ctx, user: User | null): Promise<void> {
  await ctx.limit("telemetryPerIp", ctx.ip);
  if (user) await ctx.limit("telemetryPerAccount", String(user.id));
}

/** The bytes an event takes once stored: its name and its payload as JSON. */
function storedBytes(event: Pick<TelemetryEvent, "name" | "payload">): number {
  return (
    Buffer.byteLength(event.name.slice(0, 200)) +
    Buffer.byteLength(JSON.stringify(event.payload ?? null))
  );
}

/** Whether an event was stored, or was too large (the handler answers 413 with the limit). */
export type TelemetryRecorded = { ok: true } | { ok: false; maxEventBytes: number };

/** Stores one event within the policy: refused when too large; the kind's oldest beyond the cap go. */
export async function recordTelemetry(
  db: Db,
  event: TelemetryEvent,
  now: number,
  policy: TelemetryPolicy = TELEMETRY_POLICY,
): Promise<TelemetryRecorded> {
  if (storedBytes(event) > policy.maxEventBytes) {
    return { ok: false, maxEventBytes: policy.maxEventBytes };
  }
  await db.transaction(async (tx) => {
    await Events.insert(tx, { ...event, now });
    await Events.keepNewest(tx, event.kind, policy.maxRowsPerKind);
  });
  return { ok: true };
}
