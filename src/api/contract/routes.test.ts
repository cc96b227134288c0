import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "./errors.ts";
import { api } from "./index.ts";
import { isKnownErrorCode, routes } from "./routes.ts";

describe("routes.ts (the contract without schemas, for the browser)", () => {
  it("is current: regenerate with `npm run api:routes` when this fails", () => {
    const project = (e: Record<string, unknown>) => ({
      method: e.method,
      path: e.path,
      idempotent: Boolean(e.idempotent),
      form: Boolean(e.form),
      acceptsBelow500: Boolean(e.acceptsBelow500),
    });
    expect(Object.keys(routes)).toEqual(Object.keys(api));
    for (const [name, endpoint] of Object.entries(api)) {
      expect(project(routes[name as keyof typeof api]), name).toEqual(project(endpoint));
    }
  });

  it("knows the closed set of error codes, and nothing else", () => {
    for (const code of ERROR_CODES) expect(isKnownErrorCode(code), code).toBe(true);
    expect(isKnownErrorCode("SEATS_BELOW_MINIMUM")).toBe(false);
    expect(isKnownErrorCode(undefined)).toBe(false);
  });

  it("carries no schema, so browser code that uses it does not load zod", () => {
    for (const endpoint of Object.values(routes)) {
      for (const key of ["body", "query", "response", "errors"]) {
        expect(endpoint).not.toHaveProperty(key);
      }
    }
  });
});
