// The route table: method and path to a bound handler, on find-my-way (Fastify's own router).
// It is a table of its own rather than Fastify's routes because routes are added while the
// server runs (the settable clock's, and the tests' probe routes), which Fastify refuses once it
// listens (docs/decisions/0081). A trailing slash is ignored, so /api/2/wevideouser/info/ and
// /api/4/user/ match their contract paths with or without it.
import createRouter from "find-my-way";
import type { Method } from "../../contract/common.ts";

const METHODS: readonly Method[] = ["GET", "POST", "PUT", "DELETE"];

export type Match<H> =
  | { kind: "found"; handler: H; params: Record<string, string> }
  | { kind: "method-not-allowed"; allowed: Method[] }
  | { kind: "none" };

export class RouteTable<H> {
  private readonly router = createRouter({ ignoreTrailingSlash: true });

  add(method: Method, path: string, handler: H): void {
    const normal = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    if (this.router.hasRoute(method, normal)) {
      throw new Error(`Route ${method} ${path} is defined twice`);
    }
    this.router.on(method, normal, () => undefined, { handler });
  }

  /** HEAD finds the GET route; a path no method has (or a malformed escape) finds none. */
  match(method: string, path: string): Match<H> {
    const lookup = method === "HEAD" ? "GET" : method;
    const found = (METHODS as readonly string[]).includes(lookup)
      ? this.router.find(lookup as Method, path)
      : null;
    if (found) {
      const { handler } = found.store as { handler: H };
      return { kind: "found", handler, params: { ...(found.params as Record<string, string>) } };
    }
    const allowed = METHODS.filter((m) => this.router.find(m, path) !== null);
    return allowed.length > 0 ? { kind: "method-not-allowed", allowed } : { kind: "none" };
  }
}
