// Reads outside transactions (`Db.get`, `Db.all`) on a few PostgreSQL connections that every
// request shares, pipelined (docs/decisions/0068-postgresql-shared-pipelined-connections.md).
//
// A statement on a pooled connection costs the server a socket write of its own: node-postgres
// writes one statement at a time per connection and waits for its answer. On a machine where the
// database shares the cores, that write (which wakes the database's process) was a third of the
// server's CPU on the order summary. Here each connection is in node-postgres's pipeline mode
// (statements are written without waiting for the answers before them, each with its own Sync, so
// each is its own implicit transaction and one failing does not touch the others), and its socket
// is corked from the first statement of a turn of the event loop until the end of that turn: the
// statements of all the requests of one turn go out in one write, and their answers come back in
// few reads.
//
// Only single reads come here. A transaction needs a connection of its own from the pool (its
// statements must not interleave with other requests'), and so does a write that commits alone
// (`runAlone`): its COMMIT waits for the disk, and every statement behind it on a shared
// connection would wait too. A read waits behind those sent before it on its connection, so a
// slow one delays the others there; these are the short reads of a request.
import type { PgNamedQuery, PgResult } from "./postgres.ts";
import type { StatementRunner } from "./postgres-statement.ts";

/** What of node-postgres's `Client` (opened with `pipeline: true`) this module uses. */
export interface PgPipelinedClient {
  connect(): Promise<unknown>;
  end(): Promise<void>;
  on(event: "error" | "end", listener: () => void): unknown;
  /** node-postgres's connection; its stream is corked for the rest of a turn. */
  readonly connection?: { readonly stream?: Corkable };
}

type Corkable = { cork?: () => void; uncork?: () => void };

type Lane = {
  client: PgPipelinedClient;
  /** Settles once the connection is open (it rejects when opening failed). */
  ready: Promise<void>;
  connected: boolean;
  /** Statements sent or about to be sent on it and not answered yet. */
  inFlight: number;
  /** The stream corked in this turn, to be uncorked at its end. */
  corked: Corkable | null;
};

/**
 * A prepared statement whose result columns changed since it was prepared (a migration on
 * another server added a column to a table read with `*`): PostgreSQL refuses to run it again
 * on that connection. The connection is dropped and the statement runs again on a new one.
 */
export function isStalePlan(error: unknown): boolean {
  return (
    (error as { code?: unknown } | null)?.code === "0A000" &&
    /cached plan must not change result type/.test((error as Error).message ?? "")
  );
}

export class SharedConnections {
  private lanes: Lane[] = [];
  private corked: Lane[] = [];
  private closed = false;
  private readonly open: () => PgPipelinedClient;
  private readonly count: number;
  private readonly statement: StatementRunner;

  /**
   * `open` makes an unconnected client in pipeline mode; at most `count` are open at once, a new
   * one only when every open one has a statement in flight. `statement` runs a named statement on
   * one (postgres.ts: PostgresOptions.statement).
   */
  constructor(open: () => PgPipelinedClient, count: number, statement: StatementRunner) {
    this.open = open;
    this.count = count;
    this.statement = statement;
  }

  /** Runs one named statement; a stale plan retires its connection and runs on a new one. */
  async query(config: PgNamedQuery): Promise<PgResult> {
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw new Error("The database is closed.");
      const lane = this.pick();
      lane.inFlight += 1;
      try {
        if (!lane.connected) await lane.ready;
        this.cork(lane);
        return await this.statement(lane.client, config);
      } catch (error) {
        if (!isStalePlan(error) || attempt >= 3) throw error;
        this.retire(lane);
      } finally {
        lane.inFlight -= 1;
      }
    }
  }

  /** The open connection with the fewest statements in flight, or a new one. */
  private pick(): Lane {
    let best: Lane | undefined;
    for (const lane of this.lanes) {
      if (best === undefined || lane.inFlight < best.inFlight) best = lane;
    }
    if (best !== undefined && (best.inFlight === 0 || this.lanes.length >= this.count)) return best;
    return this.add();
  }

  private add(): Lane {
    const client = this.open();
    const lane: Lane = {
      client,
      ready: Promise.resolve(),
      connected: false,
      inFlight: 0,
      corked: null,
    };
    lane.ready = client.connect().then(
      () => {
        lane.connected = true;
      },
      (error: unknown) => {
        this.retire(lane);
        throw error;
      },
    );
    // Nobody may be waiting when opening fails; the statements that were get the error.
    lane.ready.catch(() => {});
    // A connection that fails (the server went away) or ends leaves the set; its statements in
    // flight get node-postgres's error, and the next statement opens a new connection.
    client.on("error", () => this.retire(lane));
    client.on("end", () => this.retire(lane));
    this.lanes.push(lane);
    return lane;
  }

  /** Takes `lane` out of use; it ends once the statements already sent on it are answered. */
  private retire(lane: Lane): void {
    const at = this.lanes.indexOf(lane);
    if (at === -1) return;
    this.lanes.splice(at, 1);
    lane.client.end().catch(() => {});
  }

  /** Holds `lane`'s writes until the end of this turn of the event loop (see the top). */
  private cork(lane: Lane): void {
    if (lane.corked !== null) return;
    const stream = lane.client.connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    stream.cork();
    lane.corked = stream;
    if (this.corked.push(lane) === 1) setImmediate(this.uncork);
  }

  private readonly uncork = (): void => {
    const lanes = this.corked;
    this.corked = [];
    for (const lane of lanes) {
      lane.corked?.uncork?.();
      lane.corked = null;
    }
  };

  async close(): Promise<void> {
    this.closed = true;
    const lanes = this.lanes;
    this.lanes = [];
    await Promise.all(lanes.map((lane) => lane.client.end().catch(() => {})));
  }
}
