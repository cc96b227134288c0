// A named statement that node-postgres describes once per connection instead of at every
// execution (docs/decisions/0068-postgresql-shared-pipelined-connections.md).
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

class DescribedQuery extends QueryBase {
  private readonly config: PgNamedQuery;
  /**
   * A statement without values parsed on the connection before (a transaction's BEGIN), run
   * just before this one with no Sync between them: when it fails, PostgreSQL skips this one.
   */
  private readonly first: string | null;
  /** CommandCompletes still to come of `first`: this statement's row count is its own. */
  private firstCompletes: number;
  private readonly getTypeParser: (oid: number) => Parser;
  private shape: Shape | undefined;
  // Not `rows`: node-postgres reads that name as its option of rows per fetch.
  private readonly found: Row[] = [];
  private rowCount: number | null = null;
  private failed: Error | null = null;
  private readonly done: (error: Error | null, result?: PgResult) => void;

  constructor(
    config: PgNamedQuery,
    getTypeParser: (oid: number) => Parser,
    done: (error: Error | null, result?: PgResult) => void,
    first: string | null = null,
  ) {
    // The text alone: node-postgres copies a config object property by property through its
    // descriptors (cloneQueryConfig), about 3 µs per statement on the order summary's profile.
    // The client reads the name and text of the query it answers (the statements it parsed).
    super(config.text);
    Object.assign(this, { name: config.name, values: config.values });
    this.config = config;
    this.getTypeParser = getTypeParser;
    this.done = done;
    this.first = first;
    this.firstCompletes = first === null ? 0 : 1;
  }

  submit(connection: pg.Connection): Error | null {
    const wire = connection as Wire;
    const { name, text, values } = this.config;
    const previous = wire.parsedStatements[name] ?? wire.submittedNamedStatements[name];
    if (previous !== undefined && previous !== text)
      return new Error(
        `Prepared statements must be unique - '${name}' was used for a different statement`,
      );
    if (this.first !== null && wire.parsedStatements[this.first] === undefined)
      return new Error(`The statement '${this.first}' to run first is not prepared here.`);
    let shapes = described.get(connection);
    if (shapes === undefined) {
      shapes = new Map();
      described.set(connection, shapes);
    }
    this.shape = shapes.get(name);
    const stream = connection.stream;
    stream.cork();
    try {
      // Bind and Execute of `first`, and no Sync: an error skips every message up to the Sync
      // at the end, this statement's included.
      if (this.first !== null) {
        connection.bind({ statement: this.first, values: [], valueMapper } as pg.BindConfig, false);
        connection.execute({ portal: "" } as unknown as pg.ExecuteConfig, false);
      }
      if (previous === undefined) {
        connection.parse({ name, text, types: [] }, false);
        wire.submittedNamedStatements[name] = text;
      }
      // Its description the first time on this connection: the row description that answers it
      // comes before the rows (handleRowDescription), or NoData for a statement without rows.
      if (this.shape === undefined) connection.describe({ type: "S", name }, false);
      connection.bind({ statement: name, values, valueMapper } as pg.BindConfig, false);
      connection.execute({ portal: "" } as unknown as pg.ExecuteConfig, false);
      connection.sync();
    } finally {
      stream.uncork();
    }
    return null;
  }

  handleRowDescription(message: { fields: Field[] }): void {
    const fields = message.fields;
    this.shape = {
      parsers: fields.map((f) => this.getTypeParser(f.dataTypeID)),
      build: compileRow(fields.map((f) => f.name)),
    };
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const shape = this.shape;
    if (!shape || this.failed) return;
    const raw = message.fields;
    const values = new Array<unknown>(raw.length);
    try {
      for (let i = 0; i < raw.length; i++) {
        const text = raw[i];
        values[i] = text === null || text === undefined ? null : (shape.parsers[i] as Parser)(text);
      }
    } catch (error) {
      // A value no parser takes (an integer beyond 2^53): the statement fails when it ends.
      this.failed = error as Error;
      return;
    }
    this.found.push(shape.build(values));
  }

  handleCommandComplete(message: { text: string }): void {
    if (this.firstCompletes > 0) {
      this.firstCompletes -= 1;
      return;
    }
    const match = COMMAND_ROWS.exec(message.text);
    const count = match?.[2] ?? match?.[1];
    this.rowCount = count === undefined ? null : Number(count);
  }

  handleEmptyQuery(): void {}

  handleError(error: Error): void {
    this.done(this.failed ?? error);
  }

  handleReadyForQuery(connection: pg.Connection): void {
    // It ran: its description (none after NoData: a statement without rows) is kept.
    if (this.shape === undefined) this.shape = null;
    described.get(connection)?.set(this.config.name, this.shape);
    if (this.failed) this.done(this.failed);
    else this.done(null, { rows: this.found, rowCount: this.rowCount });
  }
}

/** What runs a named statement on a client (PostgresOptions.statement). */
export type StatementRunner = {
  (client: unknown, query: PgNamedQuery): Promise<PgResult>;
  /**
   * Runs `first` (a statement without values: a transaction's BEGIN) and then `query` on
   * `client`, in one write and one round trip once `first` is prepared on the connection (the
   * first time, in two): were `first` to fail, `query` is not run. Absent where a runner cannot.
   */
  after?: (client: unknown, first: PgNamedQuery, query: PgNamedQuery) => Promise<PgResult>;
};

/** Whether `name` is prepared (parsed) on node-postgres's `client` as `text`. */
function preparedHere(client: unknown, { name, text }: PgNamedQuery): boolean {
  return ((client as pg.Client).connection as Wire).parsedStatements[name] === text;
}

/**
 * Runs named statements on node-postgres clients, described once per connection, their values
 * read with `getTypeParser` (text format).
 */
export function describedStatements(getTypeParser: (oid: number) => Parser): StatementRunner {
  const submit = (client: unknown, query: PgNamedQuery, first: string | null) =>
    new Promise<PgResult>((resolve, reject) => {
      (client as pg.Client).query(
        // A Query to node-postgres (its pipeline mode takes no other kind).
        new DescribedQuery(
          query,
          getTypeParser,
          (error, result) => (error ? reject(error) : resolve(result as PgResult)),
          first,
        ),
      );
    });
  const run: StatementRunner = (client, query) => submit(client, query, null);
  run.after = async (client, first, query) => {
    if (preparedHere(client, first)) return submit(client, query, first.name);
    await submit(client, first, null);
    return submit(client, query, null);
  };
  return run;
}
