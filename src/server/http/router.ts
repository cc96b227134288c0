// A small router: exact paths first, then `:param` patterns. A trailing slash is ignored, so
// /api/2/wevideouser/info/ and /api/4/user/ match their contract paths with or without it.
import type { Method } from "../../contract/common.ts";

type Compiled<H> = { method: Method; regex: RegExp; names: string[]; handler: H };

export type Match<H> =
  | { kind: "found"; handler: H; params: Record<string, string> }
  | { kind: "method-not-allowed"; allowed: Method[] }
  | { kind: "none" };

export function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

export class Router<H> {
  private readonly exact = new Map<string, Map<Method, H>>();
  private readonly patterns: Compiled<H>[] = [];

  add(method: Method, path: string, handler: H): void {
    const normal = normalisePath(path);
    if (!normal.includes(":")) {
      const byMethod = this.exact.get(normal) ?? new Map<Method, H>();
      if (byMethod.has(method)) throw new Error(`Route ${method} ${path} is defined twice`);
      byMethod.set(method, handler);
      this.exact.set(normal, byMethod);
      return;
    }
    const names: string[] = [];
    const source = normal
      .split("/")
      .map((segment) => {
        if (segment.startsWith(":")) {
          names.push(segment.slice(1));
          return "([^/]+)";
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    this.patterns.push({ method, regex: new RegExp(`^${source}$`), names, handler });
  }

  match(method: string, rawPath: string): Match<H> {
    const path = normalisePath(rawPath);
    const lookup = method === "HEAD" ? "GET" : method;
    const allowed = new Set<Method>();
    const byMethod = this.exact.get(path);
    if (byMethod) {
      const handler = byMethod.get(lookup as Method);
      if (handler) return { kind: "found", handler, params: {} };
      for (const m of byMethod.keys()) allowed.add(m);
    }
    for (const route of this.patterns) {
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      try {
        route.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1] ?? "");
        });
      } catch {
        continue; // a malformed escape matches no route
      }
      if (route.method !== lookup) {
        allowed.add(route.method);
        continue;
      }
      return { kind: "found", handler: route.handler, params };
    }
    return allowed.size > 0
      ? { kind: "method-not-allowed", allowed: [...allowed] }
      : { kind: "none" };
  }
}
