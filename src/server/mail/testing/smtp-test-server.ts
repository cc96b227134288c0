// In-process SMTP servers for the mail tests, on 127.0.0.1 and a free port. One built on the
// `smtp-server` package records what a real server sees (commands, AUTH attempts, messages, and
// whether the session was encrypted at each step); a raw TCP one misbehaves on purpose.
//
// localhost-cert.pem / localhost-key.pem: a self-signed pair for localhost and 127.0.0.1, valid
// 2000–2125, made for these tests only and committed so they need neither network nor openssl.
// The key is public: nothing outside tests may trust this certificate. Made with:
//   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out localhost-key.pem
//   openssl req -new -key localhost-key.pem -subj /CN=localhost -out req.csr
//   openssl ca -selfsign -keyfile localhost-key.pem -in req.csr -startdate 20000101000000Z \
//     -enddate 21250101000000Z (extensions: subjectAltName DNS:localhost, IP:127.0.0.1)
import { readFileSync } from "node:fs";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { SMTPServer } from "smtp-server";

const here = new URL(".", import.meta.url);
export const TEST_CERT = readFileSync(new URL("localhost-cert.pem", here), "utf8");
const TEST_KEY = readFileSync(new URL("localhost-key.pem", here), "utf8");
export const TEST_USER = "mailer";
export const TEST_PASSWORD = "s3cret p@ss";

export type ReceivedMail = { from: string; to: string[]; raw: string; secure: boolean };
export type AuthAttempt = { username: string; password: string; secure: boolean };

export type TestSmtpServer = {
  port: number;
  /** Command names in the order the server read them (AUTH arguments are never kept). */
  commands: string[];
  auths: AuthAttempt[];
  received: ReceivedMail[];
  /** Errors the server reported, such as a client that gave up during the TLS handshake. */
  errors: Error[];
  /** Resolves when the server has seen `count` connections close. */
  closed(count?: number): Promise<void>;
  close(): Promise<void>;
};

export type TestSmtpOptions = {
  /** "starttls" offers STARTTLS on a plain port, "implicit" speaks TLS from the start. */
  tls: "starttls" | "implicit" | "none";
  /** Refuse MAIL FROM until the client has logged in (default true). */
  requireAuth?: boolean;
  /** Answer RCPT TO with this SMTP code (5xx rejects the recipient). */
  rejectRecipient?: number;
};

async function listen(server: { listen(port: number, host: string, done: () => void): unknown }) {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
}

export async function startTestSmtpServer(options: TestSmtpOptions): Promise<TestSmtpServer> {
  const commands: string[] = [];
  const auths: AuthAttempt[] = [];
  const received: ReceivedMail[] = [];
  const errors: Error[] = [];
  let closedCount = 0;
  const waiting: { count: number; done: () => void }[] = [];

  const server = new SMTPServer({
    secure: options.tls === "implicit",
    key: TEST_KEY,
    cert: TEST_CERT,
    disabledCommands: options.tls === "none" ? ["STARTTLS"] : [],
    // Accept AUTH even on a clear connection, so that a test proves the client withheld it.
    allowInsecureAuth: true,
    authOptional: options.requireAuth === false,
    closeTimeout: 100,
    // smtp-server logs each command it reads through a bunyan-style logger; keep the names.
    logger: {
      debug(meta: { tnx?: string; command?: string }) {
        if (meta?.tnx === "command" && meta.command) commands.push(meta.command);
      },
      trace() {},
      info() {},
      warn() {},
      error() {},
      fatal() {},
    },
    onAuth(auth, session, callback) {
      auths.push({
        username: auth.username ?? "",
        password: auth.password ?? "",
        secure: session.secure,
      });
      if (auth.username === TEST_USER && auth.password === TEST_PASSWORD) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      }
    },
    onRcptTo(_address, _session, callback) {
      if (options.rejectRecipient) {
        callback(
          Object.assign(new Error("Recipient refused"), { responseCode: options.rejectRecipient }),
        );
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const { mailFrom, rcptTo } = session.envelope;
        received.push({
          from: mailFrom ? mailFrom.address : "",
          to: rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
          secure: session.secure,
        });
        callback();
      });
    },
    onClose() {
      closedCount += 1;
      for (const w of waiting.filter((w) => closedCount >= w.count)) w.done();
    },
  });
  server.on("error", (error) => errors.push(error));
  await listen(server);
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    commands,
    auths,
    received,
    errors,
    closed: (count = 1) =>
      closedCount >= count
        ? Promise.resolve()
        : new Promise((done) => waiting.push({ count, done })),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export type RawServer = {
  port: number;
  /** Everything clients wrote, as latin1 text (TLS records included). */
  transcript: string[];
  /** Resolves when the server has seen `count` connections close. */
  closed(count?: number): Promise<void>;
  close(): Promise<void>;
};

/**
 * A TCP server that runs `script` for each connection: for servers that never greet, speak
 * clear text on a TLS port, or agree to STARTTLS and then hang up instead of shaking hands.
 */
export async function startRawServer(script: (socket: Socket) => void): Promise<RawServer> {
  const transcript: string[] = [];
  const sockets = new Set<Socket>();
  let closedCount = 0;
  const waiting: { count: number; done: () => void }[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("data", (chunk: Buffer) => transcript.push(chunk.toString("latin1")));
    // A client that gives up resets the connection; that is the expected end here.
    socket.on("error", () => {});
    socket.on("close", () => {
      sockets.delete(socket);
      closedCount += 1;
      for (const w of waiting.filter((w) => closedCount >= w.count)) w.done();
    });
    script(socket);
  });
  await listen(server);
  return {
    port: (server.address() as AddressInfo).port,
    transcript,
    closed: (count = 1) =>
      closedCount >= count
        ? Promise.resolve()
        : new Promise((done) => waiting.push({ count, done })),
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
