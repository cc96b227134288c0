// The outbox sender with the real SMTP transport: what each kind of server failure leaves in the
// outbox, and that none of them escapes as an unhandled error (which would stop the API server).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { testClock } from "../clock.ts";
import type { Db } from "../db/db.ts";
import { migrate } from "../db/migrations.ts";
import { Outbox } from "../db/outbox.ts";
import { SqliteDb } from "../db/sqlite.ts";
import { memoryLogger } from "../log.ts";
import { startTestServer } from "../testing/harness.ts";
import { forgotAnswer } from "../testing/human-answer.ts";
import { MAX_ATTEMPTS, type Mail, Mailer, type MailTransport } from "./mailer.ts";
import { createSmtpTransport } from "./smtp-transport.ts";
import {
  startRawServer,
  startTestSmtpServer,
  TEST_CERT,
  TEST_PASSWORD,
  TEST_USER,
} from "./testing/smtp-test-server.ts";

const credentials = `${encodeURIComponent(TEST_USER)}:${encodeURIComponent(TEST_PASSWORD)}`;
const mail: Mail = { to: "ada@example.com", subject: "Reset your password", text: "Follow …" };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Errors that nothing handled; vitest reports them too, this lets a test assert on them. */
function watchUnhandled(): unknown[] {
  const seen: unknown[] = [];
  const record = (error: unknown) => seen.push(error);
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  cleanups.push(() => {
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
  });
  return seen;
}

function outbox(transport: MailTransport, db?: Db) {
  const dir = mkdtempSync(join(tmpdir(), "mailer-"));
  const clock = testClock(1_000_000);
  const sqlite = new SqliteDb(join(dir, "db.sqlite"));
  const migrated = migrate(sqlite, clock.now());
  const log = memoryLogger();
  const mailer = new Mailer({
    db: db ?? sqlite,
    clock,
    log,
    transport,
    from: "Checkout <no-reply@example.com>",
  });
  cleanups.push(async () => {
    await migrated;
    await mailer.stop();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    log,
    queue: async (m: Mail) => {
      await migrated;
      return sqlite.transaction((tx) => mailer.queue(tx, m));
    },
    /** One delivery round, as the interval timer runs it, awaited to the end. */
    round: async () => {
      await migrated;
      mailer.kick();
      await mailer.stop();
    },
    rows: async () => {
      await migrated;
      return Outbox.latest(sqlite, 10);
    },
  };
}

describe("Mailer with SMTP (issue 7)", () => {
  it("delivers queued mail over STARTTLS and marks it sent", async () => {
    const server = await startTestSmtpServer({ tls: "starttls" });
    cleanups.push(server.close);
    const box = outbox(
      createSmtpTransport(`smtp://${credentials}@127.0.0.1:${server.port}`, { ca: TEST_CERT }),
    );

    await box.queue(mail);
    await box.round();

    expect(await box.rows()).toMatchObject([{ sentAt: 1_000_000, attempts: 1, lastError: null }]);
    expect(server.received.map((m) => m.to)).toEqual([["ada@example.com"]]);
  });

  it("keeps the mail queued when the certificate is not trusted, with no unhandled error", async () => {
    const unhandled = watchUnhandled();
    const server = await startTestSmtpServer({ tls: "starttls" });
    cleanups.push(server.close);
    const box = outbox(createSmtpTransport(`smtp://${credentials}@127.0.0.1:${server.port}`));

    await box.queue(mail);
    await box.round();
    await server.closed();

    const [row] = await box.rows();
    expect(row).toMatchObject({ sentAt: null, attempts: 1 });
    expect(row?.lastError).toMatch(/its TLS certificate is not trusted/);
    expect(box.log.lines).toEqual([`warn mail: sending #${row?.id} failed: ${row?.lastError}`]);
    expect(server.auths).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  it("keeps the mail queued when the server hangs up during the handshake, up to MAX_ATTEMPTS", async () => {
    const unhandled = watchUnhandled();
    const raw = await startRawServer((socket) => {
      socket.write("220 raw ESMTP\r\n");
      socket.on("data", (chunk: Buffer) => {
        const text = chunk.toString("latin1");
        if (text.startsWith("EHLO")) socket.write("250-raw\r\n250-STARTTLS\r\n250 AUTH PLAIN\r\n");
        else if (text.startsWith("STARTTLS")) socket.write("220 go ahead\r\n");
        else socket.destroy(); // the client's TLS hello
      });
    });
    cleanups.push(raw.close);
    const box = outbox(
      createSmtpTransport(`smtp://${credentials}@127.0.0.1:${raw.port}`, { ca: TEST_CERT }),
    );
    await box.queue(mail);

    for (let round = 1; round <= MAX_ATTEMPTS + 1; round++) await box.round();
    await raw.closed(MAX_ATTEMPTS);

    // One connection per attempt; after the last one the mail is left alone, still unsent.
    expect(raw.transcript.join("").match(/STARTTLS/g)).toHaveLength(MAX_ATTEMPTS);
    expect(raw.transcript.join("")).not.toContain("AUTH");
    const [row] = await box.rows();
    expect(row).toMatchObject({ sentAt: null, attempts: MAX_ATTEMPTS });
    expect(row?.lastError).toMatch(/the TLS handshake failed/);
    expect(unhandled).toEqual([]);
  });

  it("sends a mail that failed once on a later round", async () => {
    const server = await startTestSmtpServer({ tls: "starttls" });
    cleanups.push(server.close);
    const url = `smtp://${credentials}@127.0.0.1:${server.port}`;
    const untrusting = createSmtpTransport(url);
    const trusting = createSmtpTransport(url, { ca: TEST_CERT });
    let current = untrusting;
    const box = outbox({ send: (m) => current.send(m) });

    await box.queue(mail);
    await box.round();
    current = trusting;
    await box.round();

    expect(await box.rows()).toMatchObject([{ sentAt: 1_000_000, attempts: 2 }]);
    expect(server.received).toHaveLength(1);
  });

  it("logs a round that fails outside a send instead of leaving the rejection unhandled", async () => {
    const unhandled = watchUnhandled();
    const broken: Db = {
      dialect: "sqlite",
      // Every query of the typed builder fails as the SQL-text methods do.
      kysely: new Proxy(
        {},
        {
          get: () => {
            throw new Error("database is closed");
          },
        },
      ) as never,
      exec: () => Promise.reject(new Error("database is closed")),
      get: () => Promise.reject(new Error("database is closed")),
      all: () => Promise.reject(new Error("database is closed")),
      run: () => Promise.reject(new Error("database is closed")),
      runAlone: () => Promise.reject(new Error("database is closed")),
      transaction: () => Promise.reject(new Error("database is closed")),
      close: () => {},
    };
    const box = outbox({ send: () => Promise.resolve() }, broken);

    await box.round();

    expect(box.log.lines).toEqual([
      expect.stringMatching(/^error mail: delivery round failed Error: database is closed/),
    ]);
    expect(unhandled).toEqual([]);
  });
});

describe("API server with SMTP_URL (issue 7)", () => {
  it("keeps answering after a mail fails its TLS handshake; the mail stays queued", async () => {
    const unhandled = watchUnhandled();
    // main.ts gives the transport no test CA, so this server's certificate is not trusted.
    const smtp = await startTestSmtpServer({ tls: "starttls" });
    cleanups.push(smtp.close);
    const server = await startTestServer({
      env: { SMTP_URL: `smtp://${credentials}@127.0.0.1:${smtp.port}` },
    });
    cleanups.push(server.close);
    const client = server.client();

    const asked = await client.call(api.forgotPassword, {
      body: {
        email: "monthly@demo.test",
        recaptchaResponse: await forgotAnswer("monthly@demo.test"),
      },
    });
    expect(asked.ok).toBe(true);
    await smtp.closed();
    await server.running.deps.mailer.stop();

    const [row] = await Outbox.latest(server.running.deps.db, 1, "monthly@demo.test");
    expect(row).toMatchObject({ sentAt: null, attempts: 1 });
    expect(row?.lastError).toMatch(/its TLS certificate is not trusted/);
    expect(smtp.auths).toEqual([]);
    const again = await client.call(api.forgotPassword, {
      body: {
        email: "annual@demo.test",
        recaptchaResponse: await forgotAnswer("annual@demo.test"),
      },
    });
    expect(again.ok).toBe(true);
    expect(unhandled).toEqual([]);
  });
});
