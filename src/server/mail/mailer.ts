// E-mail goes to the outbox table first, in the same transaction as whatever caused it. In sandbox
// mode the /dev/mailbox page shows it; when SMTP is configured a sender delivers it and marks it
// sent, retrying a few times. Every server runs a sender; each mail is claimed in the database
// (for CLAIM_MS of system time) before it is sent, so two servers on one database do not both
// send it. A sender that dies mid-send leaves the claim to run out, and the mail is tried again.
import type { Clock } from "../clock.ts";
import type { Db, Queryable } from "../db/db.ts";
import { Outbox } from "../db/outbox.ts";
import type { Logger } from "../log.ts";
import { PeriodicPass } from "../periodic-pass.ts";

export type Mail = { to: string; subject: string; text: string };
export type MailTransport = { send(mail: Mail & { from: string }): Promise<void> };

/** A mail that failed this many times stays in the outbox, unsent, with its last error. */
export const MAX_ATTEMPTS = 5;
/** Longer than one send may take (60 s for the whole mail, smtp-transport.ts). */
const CLAIM_MS = 2 * 60_000;
const ROUND_INTERVAL_MS = 5000;

export class Mailer {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly from: string;
  /** Delivery rounds, only with SMTP (without it mail stays in the outbox for /dev/mailbox). */
  private readonly rounds: PeriodicPass<void> | null;

  constructor(options: {
    db: Db;
    clock: Clock;
    log: Logger;
    transport: MailTransport | null;
    from: string;
  }) {
    this.db = options.db;
    this.clock = options.clock;
    this.log = options.log;
    this.from = options.from;
    const transport = options.transport;
    // Each send's failure is caught in deliver(); the pass logs the rest (the database going
    // away mid-round). A mail queued during a round gets the round after it (periodic-pass.ts).
    this.rounds = transport
      ? new PeriodicPass({
          pass: () => this.deliver(transport),
          fallback: undefined,
          failure: "mail: delivery round failed",
          log: options.log,
          intervalMs: ROUND_INTERVAL_MS,
        })
      : null;
  }

  /** Queues a mail inside the caller's transaction. Call `kick()` after it commits. */
  async queue(tx: Queryable, mail: Mail): Promise<void> {
    await this.queueAll(tx, [mail]);
  }

  /** Queues several mails in one statement, in order, inside the caller's transaction. */
  async queueAll(tx: Queryable, mails: readonly Mail[]): Promise<void> {
    const now = this.clock.now();
    await Outbox.insertAll(
      tx,
      mails.map((mail) => ({ recipient: mail.to, subject: mail.subject, body: mail.text, now })),
    );
  }

  /** Starts delivering queued mail (no-op without SMTP). */
  kick(): void {
    void this.rounds?.kick();
  }

  /** A round every ROUND_INTERVAL_MS (no-op without SMTP): retries, and mail of other servers. */
  start(): void {
    this.rounds?.start();
  }

  async stop(): Promise<void> {
    await this.rounds?.stop();
  }

  private async deliver(transport: MailTransport): Promise<void> {
    const pending = await Outbox.unsent(this.db, 20, MAX_ATTEMPTS, Date.now());
    for (const mail of pending) {
      const now = Date.now();
      const claimed = await this.db.transaction((tx) =>
        Outbox.claim(tx, mail.id, now, now + CLAIM_MS),
      );
      if (!claimed) continue; // another server is sending it
      try {
        await transport.send({
          from: this.from,
          to: mail.recipient,
          subject: mail.subject,
          text: mail.body,
        });
        await this.db.transaction((tx) => Outbox.markSent(tx, mail.id, this.clock.now()));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.log.warn(`mail: sending #${mail.id} failed: ${message}`);
        await this.db.transaction((tx) => Outbox.markFailed(tx, mail.id, message));
      }
    }
  }
}
