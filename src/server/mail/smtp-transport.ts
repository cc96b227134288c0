// Delivers outbox mail through nodemailer (decision record 0009), one connection per message.
// TLS is required unless SMTP_URL says ?tls=none (smtp-url.ts), certificates are always verified,
// and every failure comes back as a rejected promise: the mailer leaves the mail in the outbox
// and tries again, and nothing here can raise an 'error' event that would stop the server.
import type { SecureContextOptions } from "node:tls";
import { createTransport } from "nodemailer";
import type { MailTransport } from "./mailer.ts";
import { parseSmtpUrl, type SmtpEndpoint } from "./smtp-url.ts";

export type SmtpTimeouts = {
  /** To open the TCP connection. */
  connectionMs: number;
  /** From connecting to the server's 220 greeting. */
  greetingMs: number;
  /** Silence on the socket, at any step. */
  socketMs: number;
  /** The whole delivery of one message: a server that answers slowly but never idles. */
  sendMs: number;
};

// nodemailer's own defaults (2 min to connect, 10 min of silence) would let one stuck server
// hold the outbox sender for a long time; a real relay answers within seconds.
const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 30_000,
  sendMs: 60_000,
};

export type SmtpTransportOptions = {
  /**
   * Certificates to trust instead of Node's bundled roots; tests pass their own. A server with a
   * private CA in production is trusted through NODE_EXTRA_CA_CERTS, Node's usual setting.
   * There is deliberately no way to turn verification off.
   */
  ca?: SecureContextOptions["ca"];
  timeouts?: Partial<SmtpTimeouts>;
};

export function createSmtpTransport(
  smtpUrl: string,
  options: SmtpTransportOptions = {},
): MailTransport {
  const parsed = parseSmtpUrl(smtpUrl);
  // config.ts validates with the same parser, so this only fires for a caller that skipped it.
  if (!parsed.ok) throw new Error(`SMTP_URL ${parsed.message}`);
  const endpoint = parsed.endpoint;
  const timeouts = { ...DEFAULT_SMTP_TIMEOUTS, ...options.timeouts };

  // Built from the parsed URL rather than handing nodemailer the URL itself: nodemailer would
  // also read query settings such as tls.rejectUnauthorized=false from it.
  const transporter = createTransport({
    host: endpoint.host,
    port: endpoint.port,
    secure: endpoint.security === "implicit-tls",
    // STARTTLS or fail before AUTH or MAIL: a server, or someone in the middle, that does not
    // offer it cannot downgrade the session to clear text.
    requireTLS: endpoint.security === "starttls",
    // ?tls=none means no TLS at all, not "TLS if offered and trusted".
    ignoreTLS: endpoint.security === "none",
    auth: endpoint.auth ?? undefined,
    tls: {
      rejectUnauthorized: true,
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    },
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    dnsTimeout: timeouts.connectionMs,
    logger: false,
    // The outbox holds plain strings; never let a message field name a file or URL to read.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  // Mail re-emits its transport's 'error' events (only OAuth2 token failures, unused here).
  // An 'error' without a listener throws and would stop the server; the send's own promise
  // carries every failure that matters.
  transporter.on("error", () => {});

  return {
    async send(mail) {
      try {
        await transporter.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          signal: AbortSignal.timeout(timeouts.sendMs),
        });
      } catch (error) {
        throw new Error(describeFailure(error, endpoint), { cause: error });
      }
    },
  };
}

type NodemailerError = Error & {
  code?: string;
  originalCode?: string;
  command?: string;
  responseCode?: number;
};

/**
 * One line for the log and the outbox's last_error: which server, what went wrong, and for TLS
 * what to do about it. nodemailer reports a failed handshake as a socket error carrying
 * OpenSSL's text, which names neither TLS nor the remedy.
 */
function describeFailure(error: unknown, endpoint: SmtpEndpoint): string {
  const where = `SMTP server ${endpoint.host}:${endpoint.port}`;
  if (!(error instanceof Error)) return `${where}: ${String(error)}`;
  const e = error as NodemailerError;
  const cause = e.originalCode ?? "";
  if (e.code === "ETLS" && e.command === "STARTTLS" && e.responseCode !== undefined) {
    return `${where} does not offer STARTTLS, so nothing was sent: TLS is required before credentials or mail. Use smtps:// if it speaks TLS from the start, or ?tls=none for a relay that needs no credentials (${e.message})`;
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(cause)) {
    const reason = e.message.split(";")[0];
    return `${where}: its TLS certificate is not trusted (${reason}), so nothing was sent. A private CA is added with NODE_EXTRA_CA_CERTS`;
  }
  if (e.code === "ETLS" || /^ERR_(SSL|TLS)_/.test(cause) || /\bTLS\b/.test(e.message)) {
    const reason = /SSL routines:[^:]*:([^:]+)/.exec(e.message)?.[1] ?? e.message;
    return `${where}: the TLS handshake failed (${reason.trim()}), so nothing was sent`;
  }
  if (e.code === "EABORT") return `${where} did not finish within the delivery time limit`;
  return `${where}: ${e.message}`;
}
