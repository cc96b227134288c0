// FNV-1a (32 bits) over a string's UTF-16 code units, shared by the two caches of a `catalog` run:
// the bundle's code cache and the YAML parse cache name their files by a path's hash, and the
// parse cache checksums each value. In JavaScript rather than node:crypto or zlib, whose loading
// alone costs a run a few milliseconds. Any one changed character changes the hash (each step is
// a bijection), which is what a damaged file looks like; it is no defence against forgery.
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** fnv1a as eight hex digits: a short, stable file name for a path. */
export function fnv1aHex(text: string): string {
  return fnv1a(text).toString(16).padStart(8, "0");
}
