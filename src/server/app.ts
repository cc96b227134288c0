// The request handler: security checks, routing, error handling and writing answers. Routes are
// registered from the contract (src/client/contract) through routing.ts, which checks each request's
// input with the entry's schemas before its handler runs, so paths and schemas cannot drift from
// what the browser client uses.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Endpoint } from "../contract/common.ts";
import { WEBHOOK_PATH_PREFIX } from "../contract/webhooks.ts";
import { parseRoute } from "../domain/checkout/screens.ts";
import { apiError } from "../domain/errors/api-errors.ts";
import { PasswordWorkBusy } from "./auth/passwords.ts";
import { type AppDeps, Ctx, tooManyAttempts } from "./context.ts";
import { standInFor } from "./handlers/stand-ins.ts";
import { ClientGone } from "./http/body.ts";
import { resolveClient, TrustedProxies } from "./http/client-address.ts";
import { type Headers, HttpError, type Reply } from "./http/reply.ts";
import { Router } from "./http/router.ts";
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
import { throttledWarning } from "./log.ts";
import { bindEndpoint, bindRaw, type Handled, type Handler, type Routes } from "./routing.ts";
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
  handle(req: IncomingMessage, res: ServerResponse): void;
  routes: Routes;
};

/** Adds `extra` to a flat header list (writeHead's cheapest form), a name per value. */
function pushHeaders(headers: string[], extra: Headers | undefined): void {
  if (!extra) return;
  for (const name in extra) {
    const value = extra[name];
    if (value === undefined) continue;
    if (typeof value === "string") headers.push(name, value);
    else for (const v of value) headers.push(name, v);
  }
}

export function createApp(deps: AppDeps): App {
  const router = new Router<{ handler: Handler; endpoint: Endpoint | null }>();
  const routes: Routes = {
    api: (endpoint, handler) =>
      router.add(endpoint.method, endpoint.path, {
        handler: bindEndpoint(endpoint, handler),
        endpoint,
      }),
    raw: (route, handler) =>
      router.add(route.method, route.path, { handler: bindRaw(route, handler), endpoint: null }),
  };
  // One line per request whose client went away mid-body, at most 10 a minute: a slow-body
  // flood used to log a stack trace each.
  const clientGone = throttledWarning(deps.log, deps.clock);
  const proxies = new TrustedProxies(deps.config.trustedProxies);
  const base = baseHeaders(deps.config.publicBaseUrl);
  const commonHeaders: readonly string[] = [
    ...Object.entries(base).flat(),
    "Cache-Control",
    "no-store",
  ];
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

  function write(ctx: Ctx, res: ServerResponse, reply: Reply): void {
    const head = ctx.req.method === "HEAD";
    // One writeHead with a flat header list: cheaper than a setHeader per header.
    const headers: string[] = commonHeaders.slice();
    pushHeaders(headers, ctx.responseHeaders);
    pushHeaders(headers, reply.headers);
    switch (reply.kind) {
      case "json": {
        let body = reply.body;
        if (
          reply.status >= 400 &&
          (typeof body !== "object" || body === null || !("error_code" in body))
        ) {
          body = apiError("internal_error").body;
        }
        const text = JSON.stringify(body);
        headers.push(
          "Content-Security-Policy",
          API_CSP,
          "Content-Type",
          "application/json; charset=utf-8",
        );
        headers.push("Content-Length", String(Buffer.byteLength(text)));
        res.writeHead(reply.status, headers);
        res.end(head ? undefined : text);
        return;
      }
      case "html":
        // A page with a script of its own (the /dev/hub demo) brings its own policy.
        if (!reply.headers?.["Content-Security-Policy"]) {
          headers.push("Content-Security-Policy", OWN_PAGE_CSP);
        }
        headers.push("Content-Type", "text/html; charset=utf-8");
        headers.push("Content-Length", String(Buffer.byteLength(reply.body)));
        res.writeHead(reply.status, headers);
        res.end(head ? undefined : reply.body);
        return;
      case "redirect":
        headers.push("Location", reply.location, "Content-Security-Policy", API_CSP);
        res.writeHead(reply.status, headers);
        res.end();
        return;
      case "empty":
        res.writeHead(reply.status, headers);
        res.end();
        return;
      case "file":
        headers.push("Content-Security-Policy", API_CSP, "Content-Type", reply.contentType);
        headers.push("Content-Length", String(reply.body.byteLength));
        res.writeHead(reply.status, headers);
        res.end(head ? undefined : reply.body);
        return;
    }
  }

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

  async function notFoundPage(ctx: Ctx, res: ServerResponse): Promise<void> {
    if (deps.notFound) {
      setBaseHeaders(res);
      deps.notFound(ctx.req, res);
      return;
    }
    // The site's own 404 page when the build has one.
    if (deps.staticHandler && (ctx.req.method === "GET" || ctx.req.method === "HEAD")) {
      const original = ctx.req.url;
      ctx.req.url = "/404.html";
      delete ctx.req.headers["if-none-match"];
      const served = await deps.staticHandler(ctx.req, res, pageServe(ctx, res, 404));
      ctx.req.url = original;
      if (served) return;
    }
    write(ctx, res, {
      kind: "html",
      status: 404,
      body: '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><h1>Not found</h1><p><a href="/">Go to the home page</a></p></html>',
    });
  }

  async function serveStatic(ctx: Ctx, res: ServerResponse): Promise<void> {
    if (deps.staticHandler && (ctx.req.method === "GET" || ctx.req.method === "HEAD")) {
      if (await deps.staticHandler(ctx.req, res, pageServe(ctx, res))) return;
      if (await serveCartShell(ctx, res)) return;
    }
    await notFoundPage(ctx, res);
  }

  /**
   * A path under /cart that has no page of its own (an invitation link /cart/invite/<code>, or a
   * mistyped address) gets the checkout app, which shows the invitation or its not-found screen;
   * the status says which (docs/decisions/0016).
   */
  async function serveCartShell(ctx: Ctx, res: ServerResponse): Promise<boolean> {
    if (!deps.staticHandler || !ctx.path.startsWith("/cart/")) return false;
    const status = parseRoute(ctx.path, "").kind === "screen" ? 200 : 404;
    const original = ctx.req.url;
    ctx.req.url = "/cart/index.html";
    delete ctx.req.headers["if-none-match"];
    const served = await deps.staticHandler(ctx.req, res, pageServe(ctx, res, status));
    ctx.req.url = original;
    return served;
  }

  async function dispatch(ctx: Ctx, res: ServerResponse): Promise<void> {
    const method = ctx.req.method ?? "GET";
    const api = isApiPath(ctx.path);
    if (
      isStateChanging(method) &&
      // Providers' webhooks come from their servers, signed: no browser, no session, no origin.
      !ctx.path.startsWith(WEBHOOK_PATH_PREFIX) &&
      isCrossSite(ctx.req, () => originsOf(ctx.req.socket.localPort))
    ) {
      write(ctx, res, { kind: "json", status: 403, body: apiError("cross_site").body });
      return;
    }
    if (!api) {
      const alias = SITE_ALIASES[ctx.path.replace(/\/$/, "")];
      if (alias && (method === "GET" || method === "HEAD")) {
        write(ctx, res, { kind: "redirect", status: 302, location: `${alias}${ctx.url.search}` });
        return;
      }
      // The wider product's pages (terms, privacy, support, the editor) in a local run, where
      // there is no main site to serve them: a marked stand-in, not a 404 (issue 34).
      const standIn = ctx.isLocalRequest && method === "GET" ? standInFor(ctx.path) : null;
      if (standIn) {
        write(ctx, res, standIn);
        return;
      }
      await serveStatic(ctx, res);
      return;
    }
    // The development conveniences under /dev/ (the mailbox, the PayPal stand-in, the clock)
    // answer only a local request: a local run, asked from this machine, not through a proxy,
    // and addressed to a loopback name (a page that rebinds its DNS name is refused).
    if (ctx.path.startsWith("/dev/") && !ctx.isLocalRequest) {
      write(ctx, res, { kind: "json", status: 404, body: apiError("not_found").body });
      return;
    }
    const match = router.match(method, ctx.path);
    if (match.kind === "none") {
      if (ctx.path.startsWith("/login")) return serveStatic(ctx, res);
      write(ctx, res, { kind: "json", status: 404, body: apiError("not_found").body });
      return;
    }
    if (match.kind === "method-not-allowed") {
      const allowed = match.allowed.join(", ");
      if (method === "OPTIONS") {
        write(ctx, res, { kind: "empty", status: 204, headers: { Allow: `${allowed}, OPTIONS` } });
        return;
      }
      write(ctx, res, {
        kind: "json",
        status: 405,
        body: apiError("method_not_allowed", allowed).body,
        headers: { Allow: allowed },
      });
      return;
    }
    ctx.params = match.params;
    const { handler, endpoint } = match.handler;
    let reply: Handled;
    try {
      reply = await handler(ctx);
    } catch (error) {
      if (error instanceof HttpError) {
        reply = {
          kind: "json",
          status: error.error.status,
          body: error.error.body,
          headers: error.headers ?? {},
        };
      } else if (error instanceof PasswordWorkBusy) {
        // Shed load (auth/passwords.ts): 429 with Retry-After, as a rate limit answers.
        const shed = tooManyAttempts(error.retryAfterSeconds);
        reply = {
          kind: "json",
          status: shed.error.status,
          body: shed.error.body,
          headers: shed.headers ?? {},
        };
      } else if (error instanceof ClientGone) {
        clientGone(`${method} ${ctx.path} from ${ctx.ip}: ${error.message}`);
        res.destroy();
        return;
      } else {
        deps.log.error(`${method} ${ctx.path} failed`, error);
        reply = { kind: "json", status: 500, body: apiError("internal_error").body };
      }
    }
    if (reply.kind === "pass") {
      await serveStatic(ctx, res);
      return;
    }
    if (deps.validateResponses && endpoint && reply.kind === "json" && reply.status < 300) {
      const checked = endpoint.response.safeParse(reply.body);
      if (!checked.success) {
        deps.log.error(`${method} ${ctx.path} answered outside its contract`, checked.error);
        reply = { kind: "json", status: 500, body: apiError("internal_error").body };
      }
    }
    if (deps.validateResponses && endpoint && reply.kind === "json" && reply.status >= 400) {
      checkErrorCode(endpoint, reply.body, `${method} ${ctx.path}`);
    }
    write(ctx, res, reply);
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

  return {
    routes,
    handle(req, res) {
      let url: URL;
      try {
        url = new URL(req.url ?? "/", "http://localhost");
      } catch {
        setBaseHeaders(res);
        res.statusCode = 400;
        res.end();
        return;
      }
      const client = resolveClient(req.socket.remoteAddress, req.headers, proxies);
      const ctx = new Ctx(deps, req, url, client);
      dispatch(ctx, res).catch((error: unknown) => {
        deps.log.error(`${req.method} ${url.pathname} failed while answering`, error);
        if (!res.headersSent) {
          setBaseHeaders(res);
          res.statusCode = 500;
          res.setHeader("Content-Type", "application/json; charset=utf-8");
          res.end(JSON.stringify(apiError("internal_error").body));
        } else {
          res.destroy();
        }
      });
    },
  };
}
