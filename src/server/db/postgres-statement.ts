// Named statements that node-postgres describes once per connection instead of at every
// execution (docs/decisions/0068-postgresql-shared-pipelined-connections.md), sent one or several
// at a time: a batch is one write and one Sync, so one round trip (decision 0074).
//
// node-postgres's own query sends Describe with every Bind and Execute, and parses the row
// description that comes back (about 75 fields for the session lookup) into parsers and an empty
// row at every execution: 7 % of the server's CPU on the order summary. This one asks for the
// statement's description (Describe of the statement) only the first time it runs on a
// connection, keeps its parsers and a row builder compiled for its columns (mapper.ts) for that
// connection, and then sends only Bind, Execute and Sync. A statement's description cannot go
// stale unnoticed: when its result columns change (a migration on another server), PostgreSQL
// refuses to run it ("cached plan must not change result type") and the connection is dropped
// (postgres.ts, postgres-shared.ts), its descriptions with it.
//
// It extends node-postgres's `Query` because pipeline mode (postgres-shared.ts) takes only those;
// it replaces what `Query` does on the wire and with the rows, and keeps the rest (the client's
// bookkeeping of parsed statements, errors). `pg` is pinned (decision 0008), and the database
// contract suite runs every query module through it on a PostgreSQL server.
import pg from "pg";
import type { Row } from "./db.ts";
import { compileRow } from "./mapper.ts";
import type { PgNamedQuery, PgResult } from "./postgres.ts";

type Parser = (text: string) => unknown;

/** A statement's result as described: a parser per column and the row builder; null: no rows. */
type Shape = { parsers: Parser[]; build: (values: unknown[]) => Row } | null;

/** Per connection (node-postgres's Connection), the statements described on it. */
const described = new WeakMap<object, Map<string, Shape>>();

/** The part of node-postgres's Connection this uses (the types do not list its statement maps). */
type Wire = pg.Connection & {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
};

type Field = { name: string; dataTypeID: number };

const COMMAND_ROWS = /^[A-Za-z]+(?: (\d+))?(?: (\d+))?/;

/** Parameters as node-postgres writes them: text, except null and buffers (toParam's output). */
const valueMapper = (value: unknown) =>
  value === null || value === undefined || Buffer.isBuffer(value) ? value : String(value);

/**
 * node-postgres's `Query`, whose handlers (called by the client as messages arrive) its types do
 * not list: the class below replaces them.
 */
const QueryBase = pg.Query as unknown as new (text: string) => object;

/** One statement of a DescribedQuery, and what came back for it. */
type Part = {
  readonly config: PgNamedQuery;
  shape: Shape | undefined;
  // Not `rows`: node-postgres reads that name as its option of rows per fetch.
  readonly found: Row[];
  rowCount: number | null;
  /** A value no parser took (an integer beyond 2^53): the statement fails when it ends. */
  failed: Error | null;
  /** Its Parse went out in this batch (not yet answered: its Describe neither). */
  parsing: boolean;
  readonly settle: (error: Error | null, result?: PgResult) => void;
};

/**
 * What the other statements of a batch in which one failed are told. Those after it were
 * skipped; those before it are undone: outside a transaction a batch is one implicit
 * transaction, which the failure rolls back, and inside one the failure aborts it.
 */
export class BatchFailed extends Error {
  constructor(cause: Error) {
    super(`A statement of its batch failed: ${cause.message}`, { cause });
    this.name = "BatchFailed";
  }
}

class DescribedQuery extends QueryBase {
  private readonly parts: Part[];
  /** The part whose answers are arriving. */
  private current = 0;
  private readonly getTypeParser: (oid: number) => Parser;

  constructor(
    parts: readonly Omit<Part, "shape" | "found" | "rowCount" | "failed" | "parsing">[],
    getTypeParser: (oid: number) => Parser,
  ) {
    const first = parts[0];
    if (!first) throw new Error("A batch of no statements.");
    // The text alone: node-postgres copies a config object property by property through its
    // descriptors (cloneQueryConfig), about 3 µs per statement on the order summary's profile.
    super(first.config.text);
    this.parts = parts.map((p) => ({
      ...p,
      shape: undefined,
      found: [],
      rowCount: null,
      failed: null,
      parsing: false,
    }));
    this.getTypeParser = getTypeParser;
    this.point(0);
  }

  /**
   * Answers now arrive for part `index`. The client reads the name and text of the query it
   * answers when a ParseComplete arrives (it then records the statement as parsed on the
   * connection) or an error (it forgets the statement as submitted): those of that part.
   */
  private point(index: number): void {
    this.current = index;
    const part = this.parts[index];
    if (part) Object.assign(this, { name: part.config.name, text: part.config.text });
  }

  submit(connection: pg.Connection): Error | null {
    const wire = connection as Wire;
    for (const { config } of this.parts) {
      const previous =
        wire.parsedStatements[config.name] ?? wire.submittedNamedStatements[config.name];
      if (previous !== undefined && previous !== config.text)
        return new Error(
          `Prepared statements must be unique - '${config.name}' was used for a different statement`,
        );
    }
    let shapes = described.get(connection);
    if (shapes === undefined) {
      shapes = new Map();
      described.set(connection, shapes);
    }
    const stream = connection.stream;
    stream.cork();
    try {
      // Each statement's Parse (the first time on this connection), Describe (the first time
      // it runs here), Bind and Execute, and one Sync after the last: when one fails,
      // PostgreSQL skips every message up to the Sync, the statements after it included.
      for (const part of this.parts) {
        const { name, text, values } = part.config;
        if (
          wire.parsedStatements[name] === undefined &&
          wire.submittedNamedStatements[name] === undefined
        ) {
          connection.parse({ name, text, types: [] }, false);
          wire.submittedNamedStatements[name] = text;
          part.parsing = true;
        }
        part.shape = shapes.get(name);
        // Its row description comes before its rows (handleRowDescription), or NoData for a
        // statement without rows.
        if (part.shape === undefined) connection.describe({ type: "S", name }, false);
        connection.bind({ statement: name, values, valueMapper } as pg.BindConfig, false);
        connection.execute({ portal: "" } as unknown as pg.ExecuteConfig, false);
      }
      connection.sync();
    } finally {
      stream.uncork();
    }
    return null;
  }

  handleRowDescription(message: { fields: Field[] }): void {
    const part = this.parts[this.current];
    if (!part) return;
    const fields = message.fields;
    part.shape = {
      parsers: fields.map((f) => this.getTypeParser(f.dataTypeID)),
      build: compileRow(fields.map((f) => f.name)),
    };
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const part = this.parts[this.current];
    const shape = part?.shape;
    if (!part || !shape || part.failed) return;
    const raw = message.fields;
    const values = new Array<unknown>(raw.length);
    try {
      for (let i = 0; i < raw.length; i++) {
        const text = raw[i];
        values[i] = text === null || text === undefined ? null : (shape.parsers[i] as Parser)(text);
      }
    } catch (error) {
      part.failed = error as Error;
      return;
    }
    part.found.push(shape.build(values));
  }

  handleCommandComplete(message: { text: string }, connection: pg.Connection): void {
    const part = this.parts[this.current];
    if (!part) return;
    const match = COMMAND_ROWS.exec(message.text);
    const count = match?.[2] ?? match?.[1];
    part.rowCount = count === undefined ? null : Number(count);
    // It ran: it is parsed here, and its description (none after NoData: a statement without
    // rows) is kept.
    part.parsing = false;
    if (part.shape === undefined) part.shape = null;
    described.get(connection)?.set(part.config.name, part.shape);
    this.point(this.current + 1);
  }

  /** An empty statement ends as a command without rows does: the next part's answers follow. */
  handleEmptyQuery(connection: pg.Connection): void {
    this.handleCommandComplete({ text: "" }, connection);
  }

  handleError(error: Error, connection: pg.Connection): void {
    const wire = connection as Wire;
    const failing = this.parts[this.current];
    // The failing statement is told first: whoever waits for all of them (Promise.all) is told
    // its error (a UniqueViolation, say), not that its batch failed.
    failing?.settle(failing.failed ?? error);
    for (const part of this.parts) {
      // A Parse of this batch not answered never happened: the statement is not "submitted" on
      // this connection any more (the client forgets only the failing one's).
      if (part.parsing && wire.parsedStatements[part.config.name] === undefined)
        delete wire.submittedNamedStatements[part.config.name];
      // After the last statement ran (an error at the implicit commit): the error is theirs.
      if (part !== failing) part.settle(failing ? new BatchFailed(error) : error);
    }
  }

  handleReadyForQuery(): void {
    for (const part of this.parts) {
      if (part.failed) part.settle(part.failed);
      else part.settle(null, { rows: part.found, rowCount: part.rowCount });
    }
  }
}

/** What runs a named statement on a client (PostgresOptions.statement). */
export type StatementRunner = {
  (client: unknown, query: PgNamedQuery): Promise<PgResult>;
  /**
   * Runs `queries` on `client` in this order, in one write and one round trip (one Sync after
   * the last): when one fails, PostgreSQL skips those after it, and the others reject with
   * BatchFailed. A result per statement. Absent where a runner cannot.
   */
  batch?: (client: unknown, queries: readonly PgNamedQuery[]) => Promise<PgResult>[];
};

/**
 * Runs named statements on node-postgres clients, described once per connection, their values
 * read with `getTypeParser` (text format).
 */
export function describedStatements(getTypeParser: (oid: number) => Parser): StatementRunner {
  const batch = (client: unknown, queries: readonly PgNamedQuery[]): Promise<PgResult>[] => {
    const parts: ConstructorParameters<typeof DescribedQuery>[0][number][] = [];
    const results = queries.map(
      (config) =>
        new Promise<PgResult>((resolve, reject) => {
          parts.push({
            config,
            settle: (error, result) => (error ? reject(error) : resolve(result as PgResult)),
          });
        }),
    );
    // A Query to node-postgres (its pipeline mode takes no other kind).
    (client as pg.Client).query(new DescribedQuery(parts, getTypeParser));
    return results;
  };
  const run: StatementRunner = (client, query) => batch(client, [query])[0] as Promise<PgResult>;
  run.batch = batch;
  return run;
}
