// One pass at a time, and each caller served by a pass that starts after its call (the invoice
// numbering of decision 0062: a pass running when a request's invoice committed may have read the
// waiting invoices before it, so that request needs a later one). Callers that arrive while a pass
// runs share one pass after it, so a stream of requests costs a pass per batch, not per request.
//
// A waiting caller is served by the first pass that starts after the running one ended, whoever
// started it. It once waited for a pass it started itself: when a request arriving at that moment
// had already started one, the waiters joined the pass after that, and under a steady stream of
// orders they kept being moved on (orders answered 100-450 ms late at 50 connections, the wait
// growing as the stream went on).
export class PassesAfterNow<T> {
  private running: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  /** `pass`'s result, or that of a pass that started after this call. */
  after(pass: () => Promise<T>): Promise<T> {
    if (this.running === null) return this.start(pass);
    const ignore = () => {};
    this.next ??= this.running.then(ignore, ignore).then(() => {
      this.next = null;
      // Every caller of this `next` called while the pass before ran; a pass running now began
      // after that pass ended, so after each of those calls, and serves them all.
      return this.running ?? this.start(pass);
    });
    return this.next;
  }

  private start(pass: () => Promise<T>): Promise<T> {
    const started: Promise<T> = pass().finally(() => {
      if (this.running === started) this.running = null;
    });
    this.running = started;
    return started;
  }
}
