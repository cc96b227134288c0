import { describe, expect, it } from "vitest";
import { getConfig } from "../config.ts";
import { parseSmtpUrl } from "./smtp-url.ts";

describe("parseSmtpUrl (issue 7)", () => {
  it("reads the three forms, with default ports and percent-decoded credentials", () => {
    expect(parseSmtpUrl("smtps://user:p%40ss@mail.example.com")).toEqual({
      ok: true,
      endpoint: {
        host: "mail.example.com",
        port: 465,
        security: "implicit-tls",
        auth: { user: "user", pass: "p@ss" },
      },
    });
    expect(parseSmtpUrl("smtp://user:pw@mail.example.com")).toEqual({
      ok: true,
      endpoint: {
        host: "mail.example.com",
        port: 587,
        security: "starttls",
        auth: { user: "user", pass: "pw" },
      },
    });
    expect(parseSmtpUrl("smtp://relay:25?tls=none")).toEqual({
      ok: true,
      endpoint: { host: "relay", port: 25, security: "none", auth: null },
    });
    expect(parseSmtpUrl("smtp://[::1]:2525/")).toMatchObject({
      ok: true,
      endpoint: { host: "::1", port: 2525, security: "starttls", auth: null },
    });
  });

  it("refuses what it cannot send safely or does not understand", () => {
    const messages = [
      "mail.example.com",
      "https://mail.example.com",
      "smtp://user:pw@relay:25?tls=none",
      "smtp://user@relay:25?tls=none",
      "smtps://relay?tls=none",
      "smtp://relay?tls=off",
      "smtp://relay?tls=none&tls=none",
      "smtp://relay?tls.rejectUnauthorized=false",
      "smtp://relay/inbox",
      "smtp://user@mail.example.com",
      "smtp://user:%E0%A4%A@mail.example.com",
    ].map((url) => {
      const result = parseSmtpUrl(url);
      return result.ok ? `accepted ${url}` : result.message;
    });
    expect(messages).toMatchInlineSnapshot(`
      [
        "must be a URL such as smtp://user:password@mail.example.com:587",
        "must start with smtp:// or smtps://",
        "must not carry a user or password with ?tls=none: they would be sent in clear; use smtp:// (STARTTLS) or smtps:// for a server that needs them",
        "must not carry a user or password with ?tls=none: they would be sent in clear; use smtp:// (STARTTLS) or smtps:// for a server that needs them",
        "cannot combine smtps:// with ?tls=none",
        "accepts only ?tls=none, for a relay without TLS; leave it out to require TLS (the default)",
        "accepts only ?tls=none, for a relay without TLS; leave it out to require TLS (the default)",
        "has an unknown setting "tls.rejectUnauthorized" (only ?tls=none is understood)",
        "must not have a path or a fragment (only ?tls=none is understood)",
        "needs both a user and a password, or neither",
        "has a badly percent-encoded user or password",
      ]
    `);
  });
});

describe("SMTP_URL in getConfig (issue 7)", () => {
  it("accepts the three forms and keeps the URL for the transport", () => {
    for (const url of [
      "smtps://user:pw@mail.example.com",
      "smtp://user:pw@mail.example.com:587",
      "smtp://127.0.0.1:25?tls=none",
    ]) {
      const result = getConfig({ SMTP_URL: url, SMTP_FROM: "Shop <shop@example.com>" });
      expect(result.ok && result.config.smtp, url).toEqual({
        url,
        from: "Shop <shop@example.com>",
      });
    }
  });

  it("stops start-up on an unsafe URL, naming the variable but never echoing the password", () => {
    const result = getConfig({ SMTP_URL: "smtp://user:hunter2@relay:25?tls=none" });
    expect(result).toEqual({
      ok: false,
      errors: [
        "SMTP_URL must not carry a user or password with ?tls=none: they would be sent in clear; use smtp:// (STARTTLS) or smtps:// for a server that needs them",
      ],
    });
    const unknown = getConfig({ SMTP_URL: "smtp://user:hunter2@relay?secure=false" });
    expect(!unknown.ok && unknown.errors.join()).not.toContain("hunter2");
  });
});
