// The health check a load balancer polls: 200 when this server answers and its database answers
// a query within two seconds, else 503. It reads nothing of any account and needs no session.

import { json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";

export const HEALTH_PATH = "/api/health";
const TIMEOUT_MS = 2000;

export function healthRoutes(routes: Routes): void {
  routes.raw({ method: "GET", path: HEALTH_PATH }, async (ctx) => {
    const { db, log } = ctx.app;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.get("SELECT 1 AS ok"),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
        }),
      ]);
      return json({ ok: true, database: db.dialect });
    } catch (error) {
      log.warn(`health: the database does not answer (${String(error)})`);
      return json(
        {
          ok: false,
          database: db.dialect,
          message: "The database does not answer.",
          error_code: "internal_error",
        },
        503,
      );
    } finally {
      clearTimeout(timer);
    }
  });
}
