import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeTempFolder } from "../testing/catalog-fixture.ts";
import { cacheKey, codeVersion, diskCache } from "./validate-cache.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): string {
  const root = writeTempFolder({
    "src/domain/catalog/validate.ts": "export {};\n",
    "src/domain/catalog/validate.test.ts": "test\n",
    "cli/main.ts": "export {};\n",
    "node_modules/zod/package.json": '{ "version": "4.6.7" }\n',
    "node_modules/yaml/package.json": '{ "version": "2.9.1" }\n',
  });
  folders.push(root);
  return root;
}

describe("validate cache", () => {
  it("keys on every file's path and text, and on the code version", () => {
    const files = [{ relativePath: "a.yaml", text: "x: 1\n" }];
    const key = cacheKey(files, "v1");
    expect(cacheKey(files, "v1")).toBe(key);
    expect(cacheKey(files, "v2")).not.toBe(key);
    expect(cacheKey([{ relativePath: "a.yaml", text: "x: 2\n" }], "v1")).not.toBe(key);
    expect(cacheKey([{ relativePath: "b.yaml", text: "x: 1\n" }], "v1")).not.toBe(key);
  });

  it("changes the code version when validator code or a dependency changes, not when a test does", () => {
    const root = project();
    const version = codeVersion(root);
    writeFileSync(join(root, "src/domain/catalog/validate.test.ts"), "another test\n");
    expect(codeVersion(root)).toBe(version);
    writeFileSync(join(root, "src/domain/catalog/validate.ts"), "export const x = 1;\n");
    const edited = codeVersion(root);
    expect(edited).not.toBe(version);
    writeFileSync(join(root, "node_modules/zod/package.json"), '{ "version": "4.7.0" }\n');
    expect(codeVersion(root)).not.toBe(edited);
  });

  it("stores one entry on disk and answers only for its key", () => {
    const root = project();
    const cache = diskCache(root);
    expect(cache.get("k1")).toBeUndefined();
    cache.set("k1", { ok: true });
    expect(cache.get("k1")).toEqual({ ok: true });
    expect(cache.get("k2")).toBeUndefined();
  });
});
