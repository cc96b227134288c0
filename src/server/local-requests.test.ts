// Issue 18 item 19: a local run's conveniences (/dev/, the sandbox card form and PayPal stand-in,
// the demo accounts) are a direct local request's only. A reverse proxy on the same host (nginx
// with HOST 127.0.0.1 and no PUBLIC_BASE_URL) passed them to anyone: every form a proxied request
// takes gets none of them (local-run.ts isLocalRequest, Ctx.isLocalRequest).
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "./seed.ts";
import { startTestServer, type TestServer } from "./testing/harness.ts";

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer();
  port = server.running.port;
});
afterAll(async () => {
  await server.close();
});

type Probe = { method: string; path: string; body?: unknown };
const MAILBOX: Probe = { method: "GET", path: "/dev/mailbox?format=json" };
const CARD: Probe = {
  method: "POST",
  path: "/api/3/payment/sandbox/tokens",
  body: {
    number: "4242424242424242",
    expMonth: 12,
    expYear: 2040,
    cvc: "123",
    postalCode: "12345",
  },
};
const DEMO_SIGN_IN: Probe = {
  method: "POST",
  path: "/api/5/auth/signin",
  body: { email: "owner@demo.test", password: DEMO_PASSWORD },
};

/** Sends a request with exactly these headers (Host included), answers its status. */
function send(probe: Probe, headers: Record<string, string>): Promise<number> {
  const body = probe.body === undefined ? undefined : JSON.stringify(probe.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: probe.method,
        path: probe.path,
        setHost: false,
        headers: {
          ...(body ? { "content-type": "application/json" } : {}),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The same over HTTP/1.0, as nginx talks to its upstreams by default. */
function sendHttp10(probe: Probe, host: string): Promise<number> {
  const body = probe.body === undefined ? "" : JSON.stringify(probe.body);
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `${probe.method} ${probe.path} HTTP/1.0\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on("end", () => resolve(Number(/^HTTP\/1\.\d (\d+)/.exec(text)?.[1] ?? 0)));
    socket.on("error", reject);
  });
}

// The local stand-ins of the wider product's pages (issue 34): the extension's return, support.
const RCE_RETURN: Probe = { method: "GET", path: "/api/4/rce/tokens" };
const SUPPORT_STAND_IN: Probe = { method: "GET", path: "/dev/stand-in?page=%2Fsupport" };

const probes = [MAILBOX, CARD, DEMO_SIGN_IN, RCE_RETURN, SUPPORT_STAND_IN];
const refused = (probe: Probe) => (probe === DEMO_SIGN_IN ? 401 : 404);

describe("a local request", () => {
  it("gets the mailbox, the sandbox card form, the demo sign-in and the stand-ins, as 127.0.0.1 or localhost", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      for (const probe of probes) {
        expect([host, probe.path, await send(probe, { host })]).toEqual([host, probe.path, 200]);
      }
    }
  });
});

describe("a proxied request gets none of them", () => {
  const forms: [string, Record<string, string>][] = [
    ["Forwarded", { forwarded: "for=203.0.113.9;proto=https;host=checkout.example.com" }],
    ["X-Forwarded-For", { "x-forwarded-for": "203.0.113.9" }],
    ["X-Forwarded-Host", { "x-forwarded-host": "checkout.example.com" }],
    ["X-Forwarded-Proto", { "x-forwarded-proto": "https" }],
    ["X-Forwarded-Port", { "x-forwarded-port": "443" }],
    ["X-Real-IP", { "x-real-ip": "203.0.113.9" }],
    ["Via", { via: "1.1 proxy" }],
  ];
  it.each(forms)("with a %s header", async (_, extra) => {
    for (const probe of probes) {
      const status = await send(probe, { host: `127.0.0.1:${port}`, ...extra });
      expect([probe.path, status]).toEqual([probe.path, refused(probe)]);
    }
  });

  it.each([
    ["a loopback name without the port (a proxy's upstream on port 80)", "localhost"],
    ["another port", "127.0.0.1:8080"],
    ["the proxy's upstream name", "checkout-app"],
    [
      "a public name (DNS rebinding, or the proxy passing the visitor's Host)",
      "checkout.example.com",
    ],
  ])("with a Host that is not what the server bound: %s", async (_, host) => {
    for (const probe of probes) {
      const status = await send(probe, { host });
      expect([host, probe.path, status]).toEqual([host, probe.path, refused(probe)]);
    }
  });

  it("over HTTP/1.0 (nginx's default to its upstreams), even with the bound Host", async () => {
    for (const probe of probes) {
      const status = await sendHttp10(probe, `127.0.0.1:${port}`);
      expect([probe.path, status]).toEqual([probe.path, refused(probe)]);
    }
  });

  it("while an account that is not a demo account signs in through the proxy as usual", async () => {
    const email = "proxied@example.com";
    const up = await send(
      {
        method: "POST",
        path: "/api/5/auth/signup",
        body: { email, password: "secret-123", firstName: "P", lastName: "X" },
      },
      { host: `127.0.0.1:${port}` },
    );
    expect(up).toBe(200);
    const status = await send(
      { method: "POST", path: "/api/5/auth/signin", body: { email, password: "secret-123" } },
      { host: "checkout.example.com", "x-forwarded-for": "203.0.113.9" },
    );
    expect(status).toBe(200);
  });
});
