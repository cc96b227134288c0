// The parse cache (parse-cache.ts) may only ever save time: a file read through it must give the
// same value, the same problems and the same lines as a fresh parse, whatever state the cache file
// is in, and an edited file is always parsed again.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { diskFs } from "./catalog-fs.ts";
import { validateRaw } from "./load-catalog.ts";
import {
  cacheFileFor,
  fnv1a as checksum,
  encodeEntries,
  entryOf,
  parseCacheIn as parseCacheOf,
  readEntries,
} from "./parse-cache.ts";
import { parseCatalog } from "./read-catalog.ts";
import { type RawFile, readTexts } from "./read-texts.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "catalog-parse-cache-"));
  dirs.push(dir);
  return dir;
}

// Every reading below is of the folder "catalog"; the cache file is that folder's.
const parseCacheIn = (dir: string) => parseCacheOf(dir, "catalog");
const cacheFile = (dir: string) => cacheFileFor(dir, "catalog");

/** The catalogue's files as a fixture hands them to the reader. */
function raw(texts: Record<string, string>): RawFile[] {
  return Object.entries(texts).map(([path, text]) => ({
    relativePath: path.replace(/^catalog\//, ""),
    text,
  }));
}

const shipped = readTexts(diskFs, join(root, "catalog"));

// YAML whose values a careless cache would change: numbers JSON cannot hold, a shared anchor, a
// `__proto__` key, an empty document, non-ASCII text, keys that look like numbers, an alias inside
// its own anchor.
const awkward: RawFile[] = [
  { relativePath: "accounts.yaml", text: "a: .inf\nb: -.inf\nc: .nan\nd: -0\ne: 1e400\n" },
  { relativePath: "exports.yaml", text: "base: &b { x: [1, 2] }\none: *b\ntwo: *b\n" },
  { relativePath: "essentials.yaml", text: "__proto__: { polluted: true }\nok: 1\n" },
  { relativePath: "marketing.yaml", text: "" },
  { relativePath: "tax-rates.yaml", text: "name: Ünïcödé — “quoted” 😀\n10: ten\n2: two\n" },
  { relativePath: "seat-bands.yaml", text: "loop: &l { self: *l }\n" },
];

describe("the parse cache", () => {
  it("gives a later run the very values a fresh parse gives, for every shipped and awkward file", () => {
    const dir = cacheDir();
    for (const [folder, files] of [
      ["shipped", shipped],
      ["awkward", awkward],
    ] as const) {
      const fresh = parseCatalog(files, folder);
      parseCatalog(files, folder, parseCacheOf(dir, folder));
      const cached = parseCatalog(files, folder, parseCacheOf(dir, folder));
      expect(cached.issues).toEqual(fresh.issues);
      for (const [i, file] of cached.files.entries()) {
        expect(file.data).toStrictEqual(fresh.files[i]?.data);
      }
    }
    // What JSON cannot hold exactly is never kept: those files parse on every run.
    const kept = (folder: string) =>
      new Set(readEntries(cacheFileFor(dir, folder)).map(([text]) => text));
    expect(awkward.map((file) => kept("awkward").has(file.text as string))).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
    for (const file of shipped) expect(kept("shipped").has(file.text as string)).toBe(true);
    const numbers = parseCatalog(awkward, "awkward", parseCacheOf(dir, "awkward")).files[0]?.data;
    expect(Object.is((numbers as { d: number }).d, -0)).toBe(true);
    expect(Number.isNaN((numbers as { c: number }).c)).toBe(true);
  });

  it("takes unchanged files from the cache and parses an edited one again", () => {
    const dir = cacheDir();
    const texts = catalogTexts();
    parseCatalog(raw(texts), "catalog", parseCacheIn(dir));
    const edited = Object.keys(texts).find((path) => path.includes("plans/")) as string;
    const next = {
      ...texts,
      [edited]: (texts[edited] as string).replace(/price: \S+/, "price: 1.23"),
    };
    const cache = parseCacheIn(dir);
    const taken: string[] = [];
    const read = parseCatalog(raw(next), "catalog", {
      ...cache,
      take: (text) => {
        const found = cache.take(text);
        if (found) taken.push(text);
        return found;
      },
    });
    const editedFile = read.files.find((file) => file.path === edited);
    expect(JSON.stringify(editedFile?.data)).toContain("1.23");
    expect(taken.sort()).toEqual(
      Object.entries(next)
        .filter(([path]) => path !== edited)
        .map(([, text]) => text)
        .sort(),
    );
    // Each text is in the cache now, the edited one too.
    const stored = new Set(readEntries(cacheFile(dir)).map(([text]) => text));
    for (const text of Object.values(next)) expect(stored.has(text)).toBe(true);
    expect(parseCacheIn(dir).take(next[edited] as string)).toBeDefined();
  });

  it("finds the lines of problems in a file that came from the cache", () => {
    const dir = cacheDir();
    const texts = catalogTexts();
    const planPath = Object.keys(texts).find((path) => path.includes("plans/")) as string;
    // Valid YAML, invalid catalogue: the cache keeps it (it parsed cleanly).
    const broken = {
      ...texts,
      [planPath]: (texts[planPath] as string).replace(/price: \S+/, "price: -5"),
    };
    const fresh = validateRaw(raw(broken), "catalog", null);
    expect(fresh.ok).toBe(false);
    validateRaw(raw(broken), "catalog", parseCacheIn(dir));
    const cache = parseCacheIn(dir);
    expect(cache.take(broken[planPath] as string)).toBeDefined();
    const cached = validateRaw(raw(broken), "catalog", parseCacheIn(dir));
    expect(cached).toEqual(fresh);
    expect(fresh.ok === false && fresh.issues.some((issue) => issue.line !== undefined)).toBe(true);
  });

  it("never keeps a file with YAML errors: its problems are found on every run", () => {
    const dir = cacheDir();
    const files = [{ relativePath: "exports.yaml", text: "a: 1\na: 2\n" }];
    const first = parseCatalog(files, "catalog", parseCacheIn(dir));
    const second = parseCatalog(files, "catalog", parseCacheIn(dir));
    expect(second.files[0]?.problems).toEqual(first.files[0]?.problems);
    expect(second.files[0]?.problems?.length).toBe(1);
    expect(readEntries(cacheFile(dir))).toEqual([]);
  });

  it("gives two files with the same text objects of their own", () => {
    const dir = cacheDir();
    const text = "family: same\nvariants: []\n";
    const files = [
      { relativePath: "plans/a.yaml", text },
      { relativePath: "plans/b.yaml", text },
    ];
    parseCatalog(files, "catalog", parseCacheIn(dir));
    const [a, b] = parseCatalog(files, "catalog", parseCacheIn(dir)).files;
    expect(a?.data).toStrictEqual(b?.data);
    expect(a?.data).not.toBe(b?.data);
  });

  it("counts a damaged, cut short or foreign cache file as empty, and replaces it", () => {
    const dir = cacheDir();
    const files = raw(catalogTexts());
    const fresh = parseCatalog(files, "catalog");
    parseCatalog(files, "catalog", parseCacheIn(dir));
    const good = readFileSync(cacheFile(dir));
    const header = good.subarray(0, good.indexOf(10) + 1);
    const foreign = Buffer.concat([
      Buffer.from("catalog yaml parse cache 0 yaml@0.0.1\n"),
      good.subarray(header.length),
    ]);
    const notEntries = [
      '{"not":"a list"}',
      '[["only one"]]',
      '[[42,"{}",1]]',
      '[["a: 1\\n",{},1]]',
    ];
    for (const bad of [
      Buffer.alloc(0),
      Buffer.from("garbage"),
      good.subarray(0, 100),
      good.subarray(0, good.length - 1),
      foreign,
      ...notEntries.map((json) => Buffer.concat([header, Buffer.from(json)])),
    ]) {
      writeFileSync(cacheFile(dir), bad);
      expect(readEntries(cacheFile(dir))).toEqual([]);
      const read = parseCatalog(files, "catalog", parseCacheIn(dir));
      expect(read.files.map((file) => file.data)).toStrictEqual(
        fresh.files.map((file) => file.data),
      );
      // Replaced by a good one.
      expect(readEntries(cacheFile(dir)).length).toBe(files.length);
    }
  });

  it("does not use a value changed on disk, though the file still reads as well formed", () => {
    const dir = cacheDir();
    const text = "name: apple\nprice: 15.99\n";
    writeFileSync(cacheFile(dir), encodeEntries([entryOf(text, { name: "apple", price: 15.99 })]));
    expect(parseCacheIn(dir).take(text)).toEqual({ data: { name: "apple", price: 15.99 } });
    // The stored price 15.99 becomes 16.99; the text it stands for is unchanged.
    const good = readFileSync(cacheFile(dir), "utf8");
    const at = good.lastIndexOf("15.99");
    writeFileSync(cacheFile(dir), `${good.slice(0, at)}16.99${good.slice(at + 5)}`);
    const [entry] = readEntries(cacheFile(dir));
    expect(entry?.[1]).toContain("16.99");
    expect(parseCacheIn(dir).take(text)).toBeUndefined();
    // The file parses afresh, and the damaged entry is replaced.
    const files = [{ relativePath: "exports.yaml", text }];
    const read = parseCatalog(files, "catalog", parseCacheIn(dir));
    expect(read.files[0]?.data).toEqual({ name: "apple", price: 15.99 });
    expect(parseCacheIn(dir).take(text)).toEqual({ data: { name: "apple", price: 15.99 } });
  });

  it("checksums so that any one changed character is noticed", () => {
    const json = JSON.stringify({ plans: [{ code: "wv_power_12m", price: 215.88 }] });
    const sums = new Set([checksum(json)]);
    for (let i = 0; i < json.length; i++) {
      for (const replacement of ["0", "9", "x", " ", "\u00e9"]) {
        if (json[i] === replacement) continue;
        sums.add(checksum(json.slice(0, i) + replacement + json.slice(i + 1)));
      }
    }
    const variants = [...json].reduce(
      (n, char) => n + ["0", "9", "x", " ", "\u00e9"].filter((r) => r !== char).length,
      0,
    );
    expect(sums.size).toBe(variants + 1);
  });

  it("keeps each catalogue folder's files apart, so a run reads only its own", () => {
    const dir = cacheDir();
    const small = [{ relativePath: "exports.yaml", text: "a: 1\n" }];
    const large = Array.from({ length: 50 }, (_, i) => ({
      relativePath: `plans/p${i}.yaml`,
      text: `family: f${i}\nvariants: []\n`,
    }));
    parseCatalog(small, "catalog", parseCacheOf(dir, "catalog"));
    parseCatalog(large, "other", parseCacheOf(dir, "elsewhere/other"));
    expect(readEntries(cacheFileFor(dir, "catalog"))).toHaveLength(1);
    expect(readEntries(cacheFileFor(dir, "elsewhere/other"))).toHaveLength(50);
    // The same folder named another way is the same file.
    expect(cacheFileFor(dir, "./catalog/")).toBe(cacheFileFor(dir, "catalog"));
  });

  it("keeps older texts of a folder only up to as much again as the run's own", () => {
    const dir = cacheDir();
    const version = (n: number) => [{ relativePath: "exports.yaml", text: `version: ${n}\n` }];
    for (let n = 1; n <= 5; n++) parseCatalog(version(n), "catalog", parseCacheIn(dir));
    // This run's text and the one before it (the same length): an edit can be undone cheaply.
    expect(readEntries(cacheFile(dir)).map(([text]) => text)).toEqual([
      "version: 5\n",
      "version: 4\n",
    ]);
  });

  it("leaves a run as it was when the cache cannot be written", () => {
    const missing = join(cacheDir(), "no", "such", "folder");
    const files = raw(catalogTexts());
    const read = parseCatalog(files, "catalog", parseCacheIn(missing));
    expect(read.files.map((file) => file.data)).toStrictEqual(
      parseCatalog(files, "catalog").files.map((file) => file.data),
    );
  });
});
