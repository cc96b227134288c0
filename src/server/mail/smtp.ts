// A minimal SMTP client (RFC 5321) for the outbox sender: EHLO, STARTTLS when offered (smtp://)
// or TLS from the start (smtps://), AUTH PLAIN when the URL carries credentials, one message per
// connection. Enough for a relay such as a provider's SMTP endpoint; no other dependency.
import { connect as netConnect, type Socket } from "node:net";
import { type TLSSocket, connect as tlsConnect } from "node:tls";
import type { MailTransport } from "./mailer.ts";

type Reader = { next(): Promise<{ code: number; text: string }> };

function lineReader(socket: Socket | TLSSocket): Reader {
  let buffer = "";
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    let at = buffer.indexOf("\r\n");
    while (at >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      const w = waiting.shift();
      if (w) w(line);
      else lines.push(line);
      at = buffer.indexOf("\r\n");
    }
  };
  socket.on("data", onData);
  const nextLine = () =>
    new Promise<string>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) resolve(line);
      else waiting.push(resolve);
    });
  return {
    async next() {
      let text = "";
      for (;;) {
        const line = await nextLine();
        text += `${line.slice(4)}\n`;
        if (line[3] !== "-") return { code: Number(line.slice(0, 3)), text };
      }
    },
  };
}

function headerSafe(value: string): string {
  return value.replace(/[\r\n]+/g, " ");
}

function addressOf(value: string): string {
  const m = /<([^>]+)>/.exec(value);
  return (m?.[1] ?? value).trim();
}

export function createSmtpTransport(smtpUrl: string, timeoutMs = 20_000): MailTransport {
  const url = new URL(smtpUrl);
  const implicitTls = url.protocol === "smtps:";
  const port = Number(url.port || (implicitTls ? 465 : 587));
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);

  return {
    async send(mail) {
      let socket: Socket | TLSSocket = implicitTls
        ? tlsConnect({ host: url.hostname, port, servername: url.hostname })
        : netConnect({ host: url.hostname, port });
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error("SMTP timed out")));
      let reader = lineReader(socket);
      const failed = new Promise<never>((_, reject) => socket.once("error", reject));
      const expect = async (ok: number[]) => {
        const reply = await Promise.race([reader.next(), failed]);
        if (!ok.includes(reply.code)) throw new Error(`SMTP ${reply.code} ${reply.text.trim()}`);
        return reply;
      };
      const command = async (line: string, ok: number[]) => {
        socket.write(`${line}\r\n`);
        return expect(ok);
      };
      try {
        await expect([220]);
        let ehlo = await command("EHLO localhost", [250]);
        if (!implicitTls && /STARTTLS/i.test(ehlo.text)) {
          await command("STARTTLS", [220]);
          socket.removeAllListeners("data");
          socket = tlsConnect({ socket, servername: url.hostname });
          reader = lineReader(socket);
          ehlo = await command("EHLO localhost", [250]);
        }
        if (user) {
          const token = Buffer.from(`\u0000${user}\u0000${pass}`).toString("base64");
          await command(`AUTH PLAIN ${token}`, [235]);
        }
        await command(`MAIL FROM:<${addressOf(mail.from)}>`, [250]);
        await command(`RCPT TO:<${addressOf(mail.to)}>`, [250, 251]);
        await command("DATA", [354]);
        const body = mail.text.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
        const message = [
          `From: ${headerSafe(mail.from)}`,
          `To: ${headerSafe(mail.to)}`,
          `Subject: ${headerSafe(mail.subject)}`,
          `Date: ${new Date().toUTCString()}`,
          "MIME-Version: 1.0",
          "Content-Type: text/plain; charset=utf-8",
          "Content-Transfer-Encoding: 8bit",
          "",
          body,
          ".",
        ].join("\r\n");
        await command(message, [250]);
        socket.write("QUIT\r\n");
      } finally {
        socket.end();
      }
    },
  };
}
