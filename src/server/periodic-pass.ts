// A pass of background work run on an interval of real time, when kicked, and when a settable
// clock moves: the renewal worker, the Stripe reconciliation and the mail sender each run theirs
// through one. One pass at a time per instance (servers sharing a database each run their own;
// what must happen once is claimed in the database, not here).
//
// A kick while a pass runs asks for exactly one more pass right after it, however many kicks
// come: the running pass may have read the clock or the outbox before what the kick announces
// (a clock move, a mail queued), and one more pass sees it. A pass's error is logged, never
// thrown: an unhandled rejection would stop the server.
import { type Clock, isSettableClock } from "./clock.ts";
import type { Logger } from "./log.ts";

export type PeriodicPassOptions<R> = {
  /** One pass. What it throws is logged with `failure`, and the pass answers `fallback`. */
  pass: () => Promise<R>;
  /** What a failed pass answers, and a kick during stop() (which runs none). */
  fallback: R;
  /** The log line of a failed pass, such as "mail: delivery round failed". */
  failure: string;
  log: Logger;
  /** Real time between passes; 0: only when kicked (or the clock moves). */
  intervalMs: number;
  /** When it is settable (local runs, tests), each of its moves kicks a pass. */
  clock?: Clock;
  /** start() also runs a pass at once, rather than first after one interval. */
  atStart?: boolean;
};

export class PeriodicPass<R> {
  private readonly options: PeriodicPassOptions<R>;
  private started = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private current: Promise<R> | null = null;
  /** The one pass asked for while `current` runs; it starts when that one ends. */
  private followUp: PromiseWithResolvers<R> | null = null;
  private stopping = false;

  constructor(options: PeriodicPassOptions<R>) {
    this.options = options;
  }

  /** Starts the interval and the clock's kicks (and a pass now with `atStart`); again: nothing. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const { intervalMs, clock, atStart } = this.options;
    if (intervalMs > 0) {
      this.timer = setInterval(() => void this.kick(), intervalMs);
      // The timer alone does not keep the process alive: shutdown is close()'s, not the timer's.
      this.timer.unref();
    }
    if (clock && isSettableClock(clock)) this.unsubscribe = clock.onChange(() => void this.kick());
    if (atStart) void this.kick();
  }

  /**
   * Stops the interval and the clock's kicks, drops a follow-up pass not yet started, and waits
   * for the running pass: once it resolves no pass runs, so the server may close its database.
   * Kicks while it waits run nothing; after it, a kick runs a pass as before start().
   */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.stopping = true;
    try {
      this.followUp?.resolve(this.options.fallback);
      this.followUp = null;
      await this.current;
    } finally {
      this.stopping = false;
    }
  }

  /**
   * A pass now or, when one is running, the one follow-up pass after it. Resolves with what that
   * pass did once it ends; never rejects.
   */
  kick(): Promise<R> {
    if (this.stopping) return Promise.resolve(this.options.fallback);
    if (this.current === null) return this.begin();
    this.followUp ??= Promise.withResolvers<R>();
    return this.followUp.promise;
  }

  /** The pass running now, or null. */
  get running(): Promise<R> | null {
    return this.current;
  }

  private begin(): Promise<R> {
    const pass = this.guarded().then((result) => {
      // Handed over in one step: no kick can start a pass between this one and its follow-up.
      this.current = null;
      const next = this.followUp;
      this.followUp = null;
      if (next !== null) next.resolve(this.begin());
      return result;
    });
    this.current = pass;
    return pass;
  }

  private async guarded(): Promise<R> {
    try {
      return await this.options.pass();
    } catch (error) {
      this.options.log.error(this.options.failure, error);
      return this.options.fallback;
    }
  }
}
