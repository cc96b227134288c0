// SMTP_URL, read once for both config validation and the transport, so that start-up refuses
// exactly the URLs the sender could not use safely. Three forms (decision record 0009):
//   smtps://user:pass@host[:465]   TLS from the first byte
//   smtp://user:pass@host[:587]    STARTTLS, required: no credentials or mail go out in clear
//   smtp://host[:587]?tls=none     plain SMTP to a relay on the same host or private network,
//                                  never with credentials (they would cross the wire in clear)

export type SmtpSecurity = "implicit-tls" | "starttls" | "none";

export type SmtpEndpoint = {
  host: string;
  port: number;
  security: SmtpSecurity;
  auth: { user: string; pass: string } | null;
};

export type SmtpUrlResult = { ok: true; endpoint: SmtpEndpoint } | { ok: false; message: string };

// Messages follow config.ts: they complete "SMTP_URL …", and never repeat the URL, which may
// carry a password.
const fail = (message: string): SmtpUrlResult => ({ ok: false, message });

function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function parseSmtpUrl(value: string): SmtpUrlResult {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail("must be a URL such as smtp://user:password@mail.example.com:587");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    return fail("must start with smtp:// or smtps://");
  }
  if (!url.hostname) return fail("must name the mail server, as in smtp://mail.example.com");
  if ((url.pathname !== "" && url.pathname !== "/") || url.hash) {
    return fail("must not have a path or a fragment (only ?tls=none is understood)");
  }
  for (const key of new Set(url.searchParams.keys())) {
    if (key !== "tls") {
      return fail(`has an unknown setting "${key}" (only ?tls=none is understood)`);
    }
  }
  const tls = url.searchParams.getAll("tls");
  if (tls.length > 1 || (tls.length === 1 && tls[0] !== "none")) {
    return fail(
      "accepts only ?tls=none, for a relay without TLS; leave it out to require TLS (the default)",
    );
  }
  const implicitTls = url.protocol === "smtps:";
  const plain = tls.length === 1;
  if (implicitTls && plain) return fail("cannot combine smtps:// with ?tls=none");

  const user = decoded(url.username);
  const pass = decoded(url.password);
  if (user === null || pass === null) {
    return fail("has a badly percent-encoded user or password");
  }
  if (plain && (user || pass)) {
    return fail(
      "must not carry a user or password with ?tls=none: they would be sent in clear; use smtp:// (STARTTLS) or smtps:// for a server that needs them",
    );
  }
  if (Boolean(user) !== Boolean(pass)) {
    return fail("needs both a user and a password, or neither");
  }
  return {
    ok: true,
    endpoint: {
      host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port ? Number(url.port) : implicitTls ? 465 : 587,
      security: implicitTls ? "implicit-tls" : plain ? "none" : "starttls",
      auth: user ? { user, pass } : null,
    },
  };
}
