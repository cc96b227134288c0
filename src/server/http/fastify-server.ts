// The Fastify instance under the app (docs/decisions/0081): the node:http server and its
// timeouts, body reading with its limit, cookies (@fastify/cookie), a refusal before any body is
// read, and the answers to what fails before the app's handler runs, all as { message,
// error_code }. Every request goes to one handler (app.ts), which holds the route table.
import { createServer, type IncomingMessage } from "node:http";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { MAX_BODY_BYTES } from "../../contract/constants.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import type { Logger } from "../log.ts";
import { HttpError } from "./http-error.ts";

/** Every method the route table or the site answers; others reach the not-found handler. */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The path of a request URL, without its query. */
function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const query = raw.indexOf("?");
  return query < 0 ? raw : raw.slice(0, query);
}

/** The path of a request URL as `new URL` resolves it ("/a/../b" is "/b"), as the app sees it. */
export function normalPath(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return pathOf(url);
  }
}

export type ServerOptions = {
  /** The app: answers every request (its body, if any, read as bytes in `request.body`). */
  handle: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  /** The most bytes any route reads; each route's own cap is checked on what arrived. */
  bodyLimit: number;
  /** A refusal decided from the request line and headers alone, before a body is read. */
  refuse: (req: IncomingMessage) => HttpError | null;
  /** Writes an error answer (with the app's headers). */
  answer: (reply: FastifyReply, failure: HttpError) => FastifyReply;
  /** Logs, within bounds, a request whose client went away mid-body (`why`: the error's code). */
  clientGone: (req: IncomingMessage, why: string) => void;
  log: Logger;
};

export function fastifyServer(options: ServerOptions): FastifyInstance {
  const { handle, answer } = options;
  const fastify = Fastify({
    serverFactory: (handler) =>
      createServer(
        { requestTimeout: 30_000, headersTimeout: 20_000, keepAliveTimeout: 5_000 },
        handler,
      ),
    bodyLimit: options.bodyLimit,
    // close() ends keep-alive connections too, so a stopped server lets its process exit.
    forceCloseConnections: true,
    logger: false,
    exposeHeadRoutes: false,
    // A URL Fastify's router cannot decode (a malformed escape) is still the app's to answer:
    // its route table finds no route for it, the site no file.
    frameworkErrors: (_error, request, reply) => void handle(request, reply),
  });
  void fastify.register(fastifyCookie);
  // Bodies are read as bytes whatever their type; routing.ts parses them only for a route with
  // a body schema, after authentication and rate limits (JSON, beacons' text/plain, forms).
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) =>
    done(null, body),
  );
  // A callback hook, not an async one: it runs for every request, and a promise each costs.
  fastify.addHook("onRequest", (request, reply, done) => {
    const refused = options.refuse(request.raw);
    if (refused) answer(reply, refused);
    else done();
  });
  fastify.setErrorHandler((failure: Error & { code?: string }, request, reply) => {
    const code = failure.code;
    if (code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return answer(
        reply,
        new HttpError(apiError("body_too_large", MAX_BODY_BYTES), { Connection: "close" }),
      );
    }
    if (code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") {
      return answer(
        reply,
        new HttpError(
          apiError("invalid_request", "the body is not as long as its Content-Length says"),
        ),
      );
    }
    if (request.raw.destroyed || code === "ECONNRESET" || code === "ECONNABORTED") {
      // Closed or reset, or cut by the request timeout, before its body arrived: nobody is left
      // to answer, and it is not the server's fault.
      options.clientGone(request.raw, code ?? failure.message);
      reply.hijack();
      reply.raw.destroy();
      return;
    }
    options.log.error(`${request.method} ${pathOf(request.url)} failed`, failure);
    return answer(reply, new HttpError(apiError("internal_error")));
  });
  fastify.route({ method: METHODS, url: "*", handler: handle });
  fastify.setNotFoundHandler(handle);
  return fastify;
}
