// The HTTP edge on Fastify (docs/decisions/0081): the server, body reading with its limits,
// cookies (@fastify/cookie), the cross-site check before anything is read, error answers, and
// one catch-all route that hands every request to the contract's route table (routing.ts checks
// each request's input with its entry's schemas before its handler runs, so paths and schemas
// cannot drift from what the browser client uses), else to the static site.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Endpoint } from "../contract/common.ts";
import { WEBHOOK_MAX_BYTES, WEBHOOK_PATH_PREFIX } from "../contract/webhooks.ts";
import { parseRoute } from "../domain/checkout/screens.ts";
import { apiError } from "../domain/errors/api-errors.ts";
import { PasswordWorkBusy } from "./auth/passwords.ts";
import { type AppDeps, Ctx, tooManyAttempts } from "./context.ts";
import { standInFor } from "./handlers/stand-ins.ts";
import { clientKey, resolveClient, TrustedProxies } from "./http/client-address.ts";
import { fastifyServer, normalPath } from "./http/fastify-server.ts";
import { HttpError } from "./http/http-error.ts";
import type { Headers, Reply } from "./http/reply.ts";
import { RouteTable } from "./http/route-table.ts";
import {
  API_CSP,
  baseHeaders,
  isCrossSite,
  isPaymentPage,
  isStateChanging,
  OWN_PAGE_CSP,
  ownOrigins,
  staticPageCsp,
} from "./http/security.ts";
import { isLocalRequest } from "./local-run.ts";
import { throttledWarning } from "./log.ts";
import {
  bindEndpoint,
  bindRaw,
  type Handled,
  type Handler,
  type RawBody,
  type Routes,
} from "./routing.ts";
import type { StaticServe } from "./static-files.ts";

export type { Handled, Handler, Routes } from "./routing.ts";

// /orders: the quote page of spec 2.3 (issue 23 item 5), served by the server, not the site.
const API_PREFIXES = ["/api/", "/movieAPI", "/dev/", "/login", "/orders"];

function isApiPath(path: string): boolean {
  return API_PREFIXES.some(
    (prefix) => path === prefix.replace(/\/$/, "") || path.startsWith(prefix),
  );
}

/**
 * Pages of the wider site (spec 2.3) that this product serves itself: the rules of spec 2.5 and
 * the static pages send visitors to sign in or sign up there, and the checkout's own screens do
 * that job. The query (the redirect back, the chosen product) goes along.
 */
const SITE_ALIASES: Record<string, string> = {
  "/sign-in": "/cart/login",
  "/sign-up": "/cart/sign-up",
  "/signup": "/cart/sign-up",
  "/newPassword": "/cart/new-password",
};

export type App = {
  /** The Fastify instance: `listen()` it, `close()` it (main.ts). */
  fastify: FastifyInstance;
  routes: Routes;
};

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><h1>Not found</h1><p><a href="/">Go to the home page</a></p></html>';

function setHeaders(reply: FastifyReply, extra: Headers | undefined): void {
  if (!extra) return;
  for (const name in extra) {
    const value = extra[name];
    if (value !== undefined) reply.header(name, value);
  }
}

export function createApp(deps: AppDeps): App {
  const table = new RouteTable<{ handler: Handler; endpoint: Endpoint | null }>();
  const routes: Routes = {
    api: (endpoint, handler) =>
      table.add(endpoint.method, endpoint.path, {
        handler: bindEndpoint(endpoint, handler),
        endpoint,
      }),
    raw: (route, handler) =>
      table.add(route.method, route.path, { handler: bindRaw(route, handler), endpoint: null }),
  };
  // One line per request whose client went away mid-body, at most 10 a minute: a slow-body
  // flood used to log a stack trace each.
  const warnGone = throttledWarning(deps.log, deps.clock);
  const clientGone = (req: IncomingMessage, why: string) => {
    const client = clientKey(resolveClient(req.socket.remoteAddress, req.headers, proxies).address);
    warnGone(
      `${req.method} ${normalPath(req.url)} from ${client}: the client went away before its request body arrived (${why})`,
    );
  };
  const proxies = new TrustedProxies(deps.config.trustedProxies);
  const base = baseHeaders(deps.config.publicBaseUrl);
  const common: Headers = { ...base, "Cache-Control": "no-store" };
  // The own origins depend on the configuration and the port a request arrived on only: worked
  // out once per port, not for every POST.
  const origins = new Map<number | undefined, ReadonlySet<string>>();
  const originsOf = (port: number | undefined) => {
    let known = origins.get(port);
    if (!known) {
      known = ownOrigins(deps.config, port);
      origins.set(port, known);
    }
    return known;
  };
  const setBaseHeaders = (res: ServerResponse) => {
    for (const [name, value] of Object.entries(base)) res.setHeader(name, value);
  };

  function write(reply: FastifyReply, answer: Reply, extra?: Headers): FastifyReply {
    reply.code(answer.status);
    setHeaders(reply, common);
    setHeaders(reply, extra);
    setHeaders(reply, answer.headers);
    switch (answer.kind) {
      case "json": {
        let body = answer.body;
        if (
          answer.status >= 400 &&
          (typeof body !== "object" || body === null || !("error_code" in body))
        ) {
          body = apiError("internal_error").body;
        }
        reply.header("Content-Security-Policy", API_CSP);
        reply.header("Content-Type", "application/json; charset=utf-8");
        return reply.send(JSON.stringify(body));
      }
      case "html":
        // A page with a script of its own (the /dev/hub demo) brings its own policy.
        if (!answer.headers?.["Content-Security-Policy"]) {
          reply.header("Content-Security-Policy", OWN_PAGE_CSP);
        }
        reply.header("Content-Type", "text/html; charset=utf-8");
        return reply.send(answer.body);
      case "redirect":
        reply.header("Location", answer.location);
        reply.header("Content-Security-Policy", API_CSP);
        return reply.send();
      case "empty":
        return reply.send();
      case "file":
        reply.header("Content-Security-Policy", API_CSP);
        reply.header("Content-Type", answer.contentType);
        return reply.send(Buffer.from(answer.body));
    }
  }

  const error = (reply: FastifyReply, failure: HttpError) =>
    write(
      reply,
      { kind: "json", status: failure.error.status, body: failure.error.body },
      failure.headers,
    );

  /**
   * What the static handler is asked for an answer: the security headers (set here), the status
   * that replaces its own (the site's 404 page is served with 404), and a page's CSP from the
   * hashes of its inline scripts, which the handler computed once when it loaded the file.
   */
  function pageServe(ctx: Ctx, res: ServerResponse, status?: number): StaticServe {
    setBaseHeaders(res);
    const paymentPage = isPaymentPage(ctx.path);
    return {
      ...(status === undefined ? {} : { status }),
      headersFor: ({ inlineScriptHashes }) => ({
        "Content-Security-Policy": staticPageCsp({
          inlineScriptHashes,
          paymentPage,
          payments: {
            stripe: deps.config.stripePublishableKey !== null,
            paypal: deps.config.paypal !== null,
          },
          hubOrigins: deps.config.hubOrigins,
        }),
      }),
    };
  }

  /**
   * The static handler answers `url` on the raw response itself (its files are compressed once,
   * static-files.ts), else false. What it answered Fastify leaves alone (hijack).
   */
  async function fromSite(ctx: Ctx, reply: FastifyReply, url: string, status?: number) {
    if (!deps.staticHandler || (ctx.method !== "GET" && ctx.method !== "HEAD")) return false;
    const original = ctx.req.url;
    if (url !== original) {
      ctx.req.url = url;
      delete ctx.req.headers["if-none-match"];
    }
    const served = await deps.staticHandler(ctx.req, reply.raw, pageServe(ctx, reply.raw, status));
    ctx.req.url = original;
    if (served) reply.hijack();
    return served;
  }

  async function notFoundPage(ctx: Ctx, reply: FastifyReply): Promise<void> {
    if (deps.notFound) {
      reply.hijack();
      setBaseHeaders(reply.raw);
      deps.notFound(ctx.req, reply.raw);
      return;
    }
    // The site's own 404 page when the build has one.
    if (await fromSite(ctx, reply, "/404.html", 404)) return;
    write(reply, { kind: "html", status: 404, body: NOT_FOUND_PAGE });
  }

  async function serveStatic(ctx: Ctx, reply: FastifyReply): Promise<void> {
    if (await fromSite(ctx, reply, ctx.req.url ?? "/")) return;
    // A path under /cart that has no page of its own (an invitation link /cart/invite/<code>,
    // or a mistyped address) gets the checkout app, which shows the invitation or its not-found
    // screen; the status says which (docs/decisions/0016).
    if (ctx.path.startsWith("/cart/")) {
      const status = parseRoute(ctx.path, "").kind === "screen" ? 200 : 404;
      if (await fromSite(ctx, reply, "/cart/index.html", status)) return;
    }
    await notFoundPage(ctx, reply);
  }

  async function dispatch(ctx: Ctx, reply: FastifyReply, raw: RawBody): Promise<void> {
    const method = ctx.method;
    if (!isApiPath(ctx.path)) {
      const alias = SITE_ALIASES[ctx.path.replace(/\/$/, "")];
      if (alias && (method === "GET" || method === "HEAD")) {
        write(reply, { kind: "redirect", status: 302, location: `${alias}${ctx.url.search}` });
        return;
      }
      // The wider product's pages (terms, privacy, support, the editor) in a local run, where
      // there is no main site to serve them: a marked stand-in, not a 404 (issue 34).
      const standIn = ctx.isLocalRequest && method === "GET" ? standInFor(ctx.path) : null;
      if (standIn) {
        write(reply, standIn);
        return;
      }
      await serveStatic(ctx, reply);
      return;
    }
    const match = table.match(method, ctx.path);
    if (match.kind === "none") {
      if (ctx.path.startsWith("/login")) return serveStatic(ctx, reply);
      write(reply, { kind: "json", status: 404, body: apiError("not_found").body });
      return;
    }
    if (match.kind === "method-not-allowed") {
      const allowed = match.allowed.join(", ");
      if (method === "OPTIONS") {
        write(reply, { kind: "empty", status: 204, headers: { Allow: `${allowed}, OPTIONS` } });
        return;
      }
      write(reply, {
        kind: "json",
        status: 405,
        body: apiError("method_not_allowed", allowed).body,
        headers: { Allow: allowed },
      });
      return;
    }
    ctx.params = match.params;
    const { handler, endpoint } = match.handler;
    let answer: Handled;
    try {
      answer = await handler(ctx, raw);
    } catch (thrown) {
      if (thrown instanceof HttpError) {
        answer = {
          kind: "json",
          status: thrown.error.status,
          body: thrown.error.body,
          headers: thrown.headers ?? {},
        };
      } else if (thrown instanceof PasswordWorkBusy) {
        // Shed load (auth/passwords.ts): 429 with Retry-After, as a rate limit answers.
        const shed = tooManyAttempts(thrown.retryAfterSeconds);
        answer = {
          kind: "json",
          status: shed.error.status,
          body: shed.error.body,
          headers: shed.headers ?? {},
        };
      } else {
        deps.log.error(`${method} ${ctx.path} failed`, thrown);
        answer = { kind: "json", status: 500, body: apiError("internal_error").body };
      }
    }
    if (answer.kind === "pass") {
      await serveStatic(ctx, reply);
      return;
    }
    if (deps.validateResponses && endpoint && answer.kind === "json") {
      if (answer.status < 300) {
        const checked = endpoint.response.safeParse(answer.body);
        if (!checked.success) {
          deps.log.error(`${method} ${ctx.path} answered outside its contract`, checked.error);
          answer = { kind: "json", status: 500, body: apiError("internal_error").body };
        }
      }
      if (answer.status >= 400) checkErrorCode(endpoint, answer.body, `${method} ${ctx.path}`);
    }
    write(reply, answer, ctx.responseHeaders);
  }

  /**
   * Keeps the contract's lists of error codes honest: an error answer whose code its entry does
   * not list is logged as an error, which fails the test that caused it. The answer still goes
   * out as it is (the code is a real one; the list is what is wrong).
   */
  function checkErrorCode(endpoint: Endpoint, body: unknown, request: string): void {
    const code =
      typeof body === "object" && body !== null
        ? (body as { error_code?: unknown }).error_code
        : undefined;
    if (!(endpoint.errors as readonly unknown[]).includes(code)) {
      deps.log.error(
        `${request} answered error_code ${JSON.stringify(code)}, which its contract entry does not list`,
      );
    }
  }

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const req = request.raw;
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      return reply.code(400).headers(base).send();
    }
    const client = resolveClient(req.socket.remoteAddress, req.headers, proxies);
    const ctx = new Ctx(deps, req, url, client, request.cookies);
    const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
    try {
      await dispatch(ctx, reply, raw);
    } catch (failure) {
      deps.log.error(`${req.method} ${url.pathname} failed while answering`, failure);
      if (!reply.sent)
        write(reply, { kind: "json", status: 500, body: apiError("internal_error").body });
      else reply.raw.destroy();
    }
    return reply;
  }

  const fastify = fastifyServer({
    handle,
    bodyLimit: WEBHOOK_MAX_BYTES,
    // Before a body is read: a state-changing request from another site, and the development
    // conveniences under /dev/ asked from anywhere but this machine (a local run, asked
    // directly, addressed to a loopback name: a page that rebinds its DNS name is refused).
    refuse(req) {
      // The path as the route table will see it (URL-normalised): a raw "/api/5/webhooks/../x"
      // must not pass for a webhook, nor "/x/../dev/" for anything but /dev/.
      const path = normalPath(req.url);
      if (
        isStateChanging(req.method) &&
        // Providers' webhooks come from their servers, signed: no browser, no session, no origin.
        !path.startsWith(WEBHOOK_PATH_PREFIX) &&
        isCrossSite(req, () => originsOf(req.socket.localPort))
      ) {
        return new HttpError(apiError("cross_site"));
      }
      if (path.startsWith("/dev/") && !isLocalRequest(deps.config.local, req)) {
        return new HttpError(apiError("not_found"));
      }
      return null;
    },
    answer: error,
    clientGone,
    log: deps.log,
  });
  return { fastify, routes };
}
