import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSmtpTransport } from "./smtp-transport.ts";
import {
  startRawServer,
  startTestSmtpServer,
  TEST_CERT,
  TEST_PASSWORD,
  TEST_USER,
  type TestSmtpOptions,
  type TestSmtpServer,
} from "./testing/smtp-test-server.ts";

const credentials = `${encodeURIComponent(TEST_USER)}:${encodeURIComponent(TEST_PASSWORD)}`;
const mail = {
  from: "Checkout <no-reply@example.com>",
  to: "ada@example.com",
  subject: "Your activation code",
  text: "Your code is 123456.\n.a line that starts with a dot",
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function smtpServer(options: TestSmtpOptions): Promise<TestSmtpServer> {
  const server = await startTestSmtpServer(options);
  cleanups.push(server.close);
  return server;
}

/** A port on 127.0.0.1 with nothing listening: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe("SMTP transport: delivery (issue 7)", () => {
  it("delivers over STARTTLS and sends AUTH only once TLS is up", async () => {
    const server = await smtpServer({ tls: "starttls" });
    const transport = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${server.port}`, {
      ca: TEST_CERT,
    });

    await transport.send(mail);

    expect(server.auths).toEqual([{ username: TEST_USER, password: TEST_PASSWORD, secure: true }]);
    const { commands } = server;
    expect(commands.slice(0, 4)).toEqual(["EHLO", "STARTTLS", "EHLO", "AUTH"]);
    expect(server.received).toHaveLength(1);
    const [received] = server.received;
    expect(received).toMatchObject({ from: "no-reply@example.com", to: ["ada@example.com"] });
    expect(received?.secure).toBe(true);
    expect(received?.raw).toMatch(/^From: Checkout <no-reply@example\.com>$/m);
    expect(received?.raw).toMatch(/^To: ada@example\.com$/m);
    expect(received?.raw).toMatch(/^Subject: Your activation code$/m);
    // The body arrives as written: line breaks as CRLF, the leading dot un-stuffed again.
    expect(received?.raw).toContain("Your code is 123456.\r\n.a line that starts with a dot");
  });

  it("delivers over implicit TLS (smtps://)", async () => {
    const server = await smtpServer({ tls: "implicit" });
    const transport = createSmtpTransport(`smtps://${credentials}@127.0.0.1:${server.port}`, {
      ca: TEST_CERT,
    });

    await transport.send(mail);

    expect(server.commands).not.toContain("STARTTLS");
    expect(server.auths).toEqual([{ username: TEST_USER, password: TEST_PASSWORD, secure: true }]);
    expect(server.received.map((m) => [m.to, m.secure])).toEqual([[["ada@example.com"], true]]);
  });

  it("sends in clear, without credentials, only when the URL says ?tls=none", async () => {
    // The server offers STARTTLS; ?tls=none means no TLS, not "TLS when offered".
    const server = await smtpServer({ tls: "starttls", requireAuth: false });
    const transport = createSmtpTransport(`smtp://127.0.0.1:${server.port}?tls=none`);

    await transport.send(mail);

    expect(server.commands).not.toContain("STARTTLS");
    expect(server.commands).not.toContain("AUTH");
    expect(server.received.map((m) => m.secure)).toEqual([false]);
  });

  it("keeps a line break in the subject from adding a header", async () => {
    const server = await smtpServer({ tls: "starttls" });
    const transport = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${server.port}`, {
      ca: TEST_CERT,
    });

    await transport.send({ ...mail, subject: "Hi\r\nBcc: eve@example.com" });

    expect(server.received[0]?.raw).not.toMatch(/^Bcc:/im);
    expect(server.received[0]?.to).toEqual(["ada@example.com"]);
  });
});

describe("SMTP transport: refusals and failures (issue 7)", () => {
  it("sends nothing, not even the credentials, to a server that offers no STARTTLS", async () => {
    // This server would accept AUTH in clear (allowInsecureAuth): only the client can refuse.
    const server = await smtpServer({ tls: "none" });
    const transport = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${server.port}`, {
      ca: TEST_CERT,
    });

    await expect(transport.send(mail)).rejects.toThrow(
      `SMTP server 127.0.0.1:${server.port} does not offer STARTTLS, so nothing was sent: TLS is required before credentials or mail.`,
    );
    await server.closed();

    expect(server.commands).not.toContain("AUTH");
    expect(server.commands).not.toContain("MAIL");
    expect(server.auths).toEqual([]);
    expect(server.received).toEqual([]);
  });

  it("fails on a certificate it does not trust, before AUTH", async () => {
    const server = await smtpServer({ tls: "starttls" });
    // No `ca`: Node's bundled roots do not include the self-signed test certificate.
    const transport = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${server.port}`);

    await expect(transport.send(mail)).rejects.toThrow(
      `SMTP server 127.0.0.1:${server.port}: its TLS certificate is not trusted (self-signed certificate), so nothing was sent. A private CA is added with NODE_EXTRA_CA_CERTS`,
    );

    expect(server.auths).toEqual([]);
    expect(server.received).toEqual([]);
  });

  it("fails when the server hangs up in the middle of the STARTTLS handshake", async () => {
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
    const transport = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${raw.port}`, {
      ca: TEST_CERT,
    });

    await expect(transport.send(mail)).rejects.toThrow(
      `SMTP server 127.0.0.1:${raw.port}: the TLS handshake failed (Client network socket disconnected before secure TLS connection was established), so nothing was sent`,
    );
    await raw.closed();

    expect(raw.transcript.join("")).not.toContain("AUTH");
  });

  it("fails when an smtps:// server answers in clear text", async () => {
    const raw = await startRawServer((socket) => socket.write("220 plain ESMTP\r\n"));
    cleanups.push(raw.close);
    const transport = createSmtpTransport(`smtps://${credentials}@127.0.0.1:${raw.port}`, {
      ca: TEST_CERT,
    });

    await expect(transport.send(mail)).rejects.toThrow(
      `SMTP server 127.0.0.1:${raw.port}: the TLS handshake failed (wrong version number), so nothing was sent`,
    );
  });

  it("fails on a refused connection, a wrong password and a rejected recipient", async () => {
    const refused = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${await closedPort()}`);
    await expect(refused.send(mail)).rejects.toThrow(/ECONNREFUSED/);

    const server = await smtpServer({ tls: "starttls" });
    const wrong = createSmtpTransport(`smtp://${TEST_USER}:wrong@127.0.0.1:${server.port}`, {
      ca: TEST_CERT,
    });
    await expect(wrong.send(mail)).rejects.toThrow(/Invalid login: 535/);

    const strict = await smtpServer({ tls: "starttls", rejectRecipient: 550 });
    const rejected = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${strict.port}`, {
      ca: TEST_CERT,
    });
    await expect(rejected.send(mail)).rejects.toThrow(/550 Recipient refused/);
    expect([...server.received, ...strict.received]).toEqual([]);
  });

  it("gives up on a server that accepts the connection and never greets", async () => {
    const silent = await startRawServer(() => {});
    cleanups.push(silent.close);
    const transport = createSmtpTransport(`smtp://${credentials}@127.0.0.1:${silent.port}`, {
      timeouts: { greetingMs: 100 },
    });

    const started = Date.now();
    await expect(transport.send(mail)).rejects.toThrow(/Greeting never received/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("gives up on a delivery that takes longer than the overall time limit", async () => {
    // Greets, then answers each command just before the socket timeout would fire.
    const slow = await startRawServer((socket) => {
      socket.write("220 slow ESMTP\r\n");
      socket.on("data", () => setTimeout(() => socket.write("250 fine\r\n"), 80));
    });
    cleanups.push(slow.close);
    const transport = createSmtpTransport(`smtp://127.0.0.1:${slow.port}?tls=none`, {
      timeouts: { socketMs: 1000, sendMs: 150 },
    });

    await expect(transport.send(mail)).rejects.toThrow(
      `SMTP server 127.0.0.1:${slow.port} did not finish within the delivery time limit`,
    );
  });
});
