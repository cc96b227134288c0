// Background work in passes, one at a time, on an interval of real time, when kicked and when a
// settable clock moves: renewals, Stripe reconciliation, mail delivery, the server's clean-ups.
// A kick during a pass asks for exactly one more pass after it, however many kicks come: the
// running pass may have read the clock or the outbox before what the kick announces (a clock
// move, a mail queued). Errors are logged, never thrown: an unhandled rejection stops the server.
// Decision 0066.
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
      // The timer alone does not keep the process alive: shutdown is close()'s.
      this.timer.unref();
    }
    if (clock && isSettableClock(clock)) this.unsubscribe = clock.onChange(() => void this.kick());
    if (atStart) void this.kick();
  }

  /**
   * Ends the interval, the clock's kicks and a follow-up not yet started, and waits for the running
   * pass (kicks meanwhile run none): then the server may close its database. Kicks after it run.
   */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.stopping = true;
    this.followUp?.resolve(this.options.fallback);
    this.followUp = null;
    await this.current; // never rejects
    this.stopping = false;
  }

  /** A pass now or, during one, the one follow-up after it; resolves when it ends, never rejects. */
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
    const { pass, fallback, failure, log } = this.options;
    const current = Promise.try(pass)
      .catch((error: unknown) => {
        log.error(failure, error);
        return fallback;
      })
      .then((result) => {
        // Handed over in one step: no kick can start a pass between this one and its follow-up.
        this.current = null;
        const next = this.followUp;
        this.followUp = null;
        if (next !== null) next.resolve(this.begin());
        return result;
      });
    this.current = current;
    return current;
  }
}
