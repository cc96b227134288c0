// Remembers that a catalogue was valid, so that `catalog validate` on unchanged files answers
// without parsing YAML or loading zod (together over 100 ms on a cold start, most of the budget
// of a command run from editors and git hooks). The key covers everything the answer depends
// on: the catalogue files, the validator's code (src/domain/catalog and cli), the versions of
// zod and yaml, and Node's version. Only valid results are stored; failures are always recomputed.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RawFile } from "./read-texts.ts";

export type ValidateCache = {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
};

const FORMAT = 1;

export function cacheKey(raw: readonly RawFile[], codeVersion: string): string {
  const hash = createHash("sha256");
  hash.update(`catalog-validate ${FORMAT}\0${codeVersion}\0`);
  for (const file of raw) hash.update(`${file.relativePath}\0${file.text ?? "\u0001"}\0`);
  return hash.digest("hex");
}

function sourcesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith(".test.ts"))
    .sort()
    .map((name) => join(dir, name));
}

/** A fingerprint of the code that validates: changing any of it invalidates the cache. */
export function codeVersion(root: string): string {
  const hash = createHash("sha256");
  hash.update(process.version);
  const files = [
    ...sourcesBelow(join(root, "src/domain/catalog")),
    ...sourcesBelow(join(root, "cli")),
    join(root, "node_modules/zod/package.json"),
    join(root, "node_modules/yaml/package.json"),
  ];
  for (const file of files) {
    hash.update(file);
    try {
      hash.update(readFileSync(file));
    } catch {
      hash.update("\u0001missing");
    }
  }
  return hash.digest("hex");
}

/** One entry on disk (the last valid catalogue), under node_modules/.cache like other tools. */
export function diskCache(root: string): ValidateCache {
  const dir = join(root, "node_modules/.cache/catalog");
  const file = join(dir, "validate.json");
  return {
    get(key) {
      try {
        const stored = JSON.parse(readFileSync(file, "utf8")) as { key?: string; value?: unknown };
        return stored.key === key ? stored.value : undefined;
      } catch {
        return undefined;
      }
    },
    set(key, value) {
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, `${JSON.stringify({ key, value })}\n`);
      } catch {
        // A read-only checkout simply runs without the cache.
      }
    },
  };
}
