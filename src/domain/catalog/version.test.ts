import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Catalog } from "./catalog-schema.ts";
import { catalogJson, catalogVersion, catalogVersionOf, sha256Hex } from "./version.ts";

const generated = new URL("../../generated/", import.meta.url);
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("catalogue versions", () => {
  it("hashes like node:crypto's SHA-256, across block edges and non-ASCII text", () => {
    for (const text of ["", "abc", "a".repeat(55), "a".repeat(56), "a".repeat(64), "€ 9.99 — ü"]) {
      expect(sha256Hex(text), JSON.stringify(text)).toBe(sha(text));
    }
  });

  it("is the hash of catalog.json's text, and the generated version file holds it", () => {
    const text = readFileSync(new URL("catalog.json", generated), "utf8");
    const catalog = Catalog.parse(JSON.parse(text));
    expect(catalogJson(catalog)).toBe(text);
    expect(catalogVersion(catalog)).toBe(sha(text).slice(0, 12));
    const file = JSON.parse(readFileSync(new URL("catalog-version.json", generated), "utf8"));
    expect(file).toEqual({ version: catalogVersion(catalog) });
    expect(catalogVersionOf(catalog)).toBe(file.version);
  });
});
