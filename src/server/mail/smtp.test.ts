import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpTransport } from "./smtp.ts";

let server: Server;
let port = 0;
const transcripts: string[][] = [];

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    const lines: string[] = [];
    transcripts.push(lines);
    let data = false;
    let buffer = "";
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      let at = buffer.indexOf("\r\n");
      while (at >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        lines.push(line);
        if (data) {
          if (line === ".") {
            data = false;
            socket.write("250 queued\r\n");
          }
        } else if (line.startsWith("EHLO")) socket.write("250-fake\r\n250 AUTH PLAIN\r\n");
        else if (line.startsWith("AUTH PLAIN")) socket.write("235 ok\r\n");
        else if (line.startsWith("MAIL FROM") || line.startsWith("RCPT TO"))
          socket.write("250 ok\r\n");
        else if (line === "DATA") {
          data = true;
          socket.write("354 go\r\n");
        } else if (line === "QUIT") socket.end("221 bye\r\n");
        at = buffer.indexOf("\r\n");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe("SMTP transport", () => {
  it("authenticates and sends one message, dot-stuffed", async () => {
    const transport = createSmtpTransport(`smtp://user:p%40ss@127.0.0.1:${port}`);
    await transport.send({
      from: "Checkout <no-reply@example.com>",
      to: "a@example.com",
      subject: "Hi\r\nBcc: x",
      text: "line\n.dot",
    });
    const lines = transcripts[0] ?? [];
    expect(lines).toContain(`AUTH PLAIN ${Buffer.from("\u0000user\u0000p@ss").toString("base64")}`);
    expect(lines).toContain("MAIL FROM:<no-reply@example.com>");
    expect(lines).toContain("RCPT TO:<a@example.com>");
    expect(lines).toContain("Subject: Hi Bcc: x");
    expect(lines).toContain("..dot");
  });
});
