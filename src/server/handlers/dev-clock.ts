// The settable clock of a local run (CLOCK=settable, config.ts): read it, move it forward, and let
// the renewal worker catch up before answering. Registered only when the clock is settable; like
// everything under /dev/, app.ts refuses it outside a local run and to a non-loopback Host.
//
//   GET  /dev/clock                          → { now, iso }
//   POST /dev/clock {"advanceMs": 86400000}  → { now, iso, renewals }   (one day later)
//   POST /dev/clock {"set": "2027-02-15T12:00:00Z"} (or milliseconds)
import { z } from "zod";
import type { SettableClock } from "../clock.ts";
import { fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import type { RenewalRun, RenewalWorker } from "../services/renewals.ts";

const CLOCK_PATH = "/dev/clock";

const TEN_YEARS_MS = 10 * 366 * 24 * 60 * 60 * 1000;

const ClockChange = z.union([
  z.strictObject({ advanceMs: z.number().int().min(0).max(TEN_YEARS_MS) }),
  z.strictObject({
    set: z.union([
      z.number().int().min(0).max(8.64e15),
      z.iso.datetime({ offset: true }).transform((value) => Date.parse(value)),
    ]),
  }),
]);

function at(clock: SettableClock) {
  const now = clock.now();
  return { now, iso: new Date(now).toISOString() };
}

export function devClockRoutes(
  routes: Routes,
  deps: { clock: SettableClock; renewals: RenewalWorker | null },
): void {
  const { clock, renewals } = deps;
  routes.raw({ method: "GET", path: CLOCK_PATH }, async () => json(at(clock)));
  routes.raw({ method: "POST", path: CLOCK_PATH, body: ClockChange }, async (_ctx, input) => {
    const change = input.body;
    const target = "set" in change ? change.set : clock.now() + change.advanceMs;
    // Forward only, as a provider's test clock: claims, leases and periods never run backwards.
    if (target < clock.now()) {
      return fail("invalid_request", "the clock only moves forward: set a later time");
    }
    if ("set" in change) clock.set(target);
    else clock.advance(change.advanceMs);
    // The move kicked the worker; this waits for it to catch up with every period now due.
    const run: RenewalRun | null = renewals ? await renewals.catchUp() : null;
    return json({ ...at(clock), renewals: run });
  });
}
