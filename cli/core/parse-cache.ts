// What `yaml` made of each catalogue file's exact text, kept between runs in Node's compile cache
// folder, so that a run parses only the files that changed since an earlier run (decision 0024).
// Parsing ~40 KB of YAML in code that is still interpreted is half of a cold `catalog validate`;
// nothing else a run does costs as much, and no packaging makes it cheaper.
//
// The key is the whole text of the file, compared in full, never a hash or a time: an entry can
// only ever stand for the text it was made from. It holds the parsed value only; every run still
// checks every file against its schema and every rule (there is no result cache). A file that did
// not parse cleanly is never kept, so its problems are always found afresh. A file that cannot be
// read, that another version of `yaml` or of this reader wrote, or that is not what it says, counts
// as empty; an entry whose value fails its checksum is not used. Both are replaced, atomically, by
// the next run that parses something.
//
// Plain JSON with a JS checksum (fnv1a below), not node:v8's serializer or zlib's crc32: loading
// either of those modules costs ~5 ms, a sixth of Node's whole start-up, on every run. So only
// values that JSON holds exactly are kept (no NaN, infinities or -0; plain objects and lists); a
// file with anything else is parsed on every run, as without a cache.
//
// Node's modules through process.getBuiltinModule (cli/bin.cjs says why).
import yamlPackage from "yaml/package.json" with { type: "json" };

const { readFileSync, renameSync, writeFileSync } = process.getBuiltinModule("node:fs");
const { getCompileCacheDir } = process.getBuiltinModule("node:module");
const { resolve } = process.getBuiltinModule("node:path");

/**
 * Bumped whenever read-catalog.ts changes how it turns a text into a value (parse options, the
 * value's post-processing), or this file its format: older files are then never read.
 */
const READER_VERSION = 1;

/** The first line of a cache file: what wrote it. A file that starts otherwise is not read. */
const HEADER = `catalog yaml parse cache ${READER_VERSION} yaml@${yamlPackage.version}\n`;

/**
 * Each catalogue folder has a file of its own, holding this run's files and, beside them, older
 * texts (the last version of an edited file, `catalog diff`'s base revision) up to as many
 * characters again: a run reads only about twice its own catalogue, whatever other folders
 * (tests, a catalogue 100 times the shipped one) have kept. Past 16 M characters nothing older
 * is kept.
 */
const MAX_TEXT_CHARS = 16 << 20;

export type ParseCache = {
  /**
   * The value parsed from exactly this text by an earlier run, once per run and text: a second
   * file with the same text gets undefined and parses, so no two files share one object.
   */
  take(text: string): { data: unknown } | undefined;
  /** Keeps the value a clean parse of this text gave, if JSON holds it exactly. */
  keep(text: string, data: unknown): void;
  /** Writes the cache when this run parsed anything new; best effort, never throws. */
  save(): void;
};

/**
 * FNV-1a (32 bits) over a string's UTF-16 code units: each value's checksum, and the cache file's
 * name from its folder's path. Any one changed character changes it (each step is a bijection),
 * which is what a damaged file looks like; it is no defence against forgery (whoever can write the
 * folder can already change the code Node runs from its compile cache).
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A stored entry: the text, its value as JSON, and that JSON's checksum. */
type Entry = [text: string, json: string, checksum: number];

/**
 * True when JSON.parse(JSON.stringify(value)) gives back an equal value. A YAML alias comes back
 * as an equal copy of its anchor's value rather than the same object: nothing reads identity.
 */
export function jsonExact(value: unknown, ancestors = new Set<object>()): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== "object") return false;
  // A value inside itself (an alias within its own anchor) has no JSON at all.
  if (ancestors.has(value)) return false;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return false;
  ancestors.add(value);
  const exact = Object.values(value).every((item) => jsonExact(item, ancestors));
  ancestors.delete(value);
  return exact;
}

/** Larger values are not kept: aliases can make a value far larger than its text. */
const MAX_JSON_CHARS = 1 << 20;

function isEntry(entry: unknown): entry is Entry {
  return (
    Array.isArray(entry) &&
    entry.length === 3 &&
    typeof entry[0] === "string" &&
    typeof entry[1] === "string" &&
    typeof entry[2] === "number"
  );
}

/** The entries of a cache file, or none when it is missing, foreign or damaged. */
export function readEntries(path: string): Entry[] {
  let file: string;
  try {
    file = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  if (!file.startsWith(HEADER)) return [];
  try {
    const entries: unknown = JSON.parse(file.slice(HEADER.length));
    return Array.isArray(entries) && entries.every(isEntry) ? entries : [];
  } catch {
    return [];
  }
}

/** The text of a cache file holding these entries. */
export function encodeEntries(entries: readonly Entry[]): string {
  return HEADER + JSON.stringify(entries);
}

/** An entry for a value JSON holds exactly. */
export function entryOf(text: string, data: unknown): Entry {
  const json = JSON.stringify(data);
  return [text, json, fnv1a(json)];
}

/** The cache file, in the folder `cacheDir`, of the catalogue folder `catalogDir`. */
export function cacheFileFor(cacheDir: string, catalogDir: string): string {
  return `${cacheDir}/catalog-yaml-${fnv1a(resolve(catalogDir)).toString(16).padStart(8, "0")}.cache`;
}

/** The parse cache of the catalogue folder `catalogDir`, kept in the folder `cacheDir`. */
export function parseCacheIn(cacheDir: string, catalogDir: string): ParseCache {
  const path = cacheFileFor(cacheDir, catalogDir);
  const stored = new Map(readEntries(path).map((entry) => [entry[0], entry]));
  const taken = new Map<string, Entry>();
  const fresh = new Map<string, Entry>();
  return {
    take(text) {
      const entry = stored.get(text);
      if (!entry || taken.has(text)) return undefined;
      const [, json, sum] = entry;
      // Damaged on disk: parse the file as if it had never been seen (and keep it anew).
      if (fnv1a(json) !== sum) return undefined;
      taken.set(text, entry);
      return { data: JSON.parse(json) };
    },
    keep(text, data) {
      if (!jsonExact(data)) return;
      const entry = entryOf(text, data);
      if (entry[1].length <= MAX_JSON_CHARS) fresh.set(text, entry);
    },
    save() {
      if (fresh.size === 0) return;
      // This run's files first, then older ones, up to as many characters again.
      const entries: Entry[] = [...fresh.values(), ...taken.values()];
      const ours = entries.reduce((sum, [text]) => sum + text.length, 0);
      const budget = Math.min(2 * ours, MAX_TEXT_CHARS);
      let chars = ours;
      for (const [text, entry] of stored) {
        if (taken.has(text) || fresh.has(text)) continue;
        if (chars + text.length > budget) break;
        entries.push(entry);
        chars += text.length;
      }
      const partial = `${path}.${process.pid}.tmp`;
      try {
        writeFileSync(partial, encodeEntries(entries), { mode: 0o600 });
        // A rename, so that a run reading meanwhile sees the old file or the new one, never half.
        renameSync(partial, path);
      } catch {
        // A read-only or full temporary folder: the next run parses again, nothing worse.
      }
    },
  };
}

/**
 * The parse cache of the catalogue folder `catalogDir`, for one reading of it: in Node's compile
 * cache folder when the compile cache is on (cli/bin.cjs and main.ts turn it on;
 * `NODE_DISABLE_COMPILE_CACHE=1` turns both off), else none. Each reading opens its own (`catalog
 * diff` reads a folder twice: its base revision, then the working tree).
 */
export function processParseCache(catalogDir: string): ParseCache | null {
  const cacheDir = getCompileCacheDir();
  return cacheDir === undefined ? null : parseCacheIn(cacheDir, catalogDir);
}
