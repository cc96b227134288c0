// What JavaScript each page under /cart loads before the payment step: the module scripts and
// island code its HTML names, everything they import statically (the app's shell), and the
// largest screen chunk the shell imports dynamically (a page shows one screen group; counting the
// largest keeps the figure an upper bound). Chunks imported dynamically by a screen chunk, such as
// the payment providers' SDKs, load on the payment step and are left out. Sizes are gzip -9, as
// the static server sends them. Used by `npm run bench` and the budget test in e2e/cart.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { gzipSync } from "node:zlib";

/** Issue 8: under 90 KB compressed before the payment step (React and React DOM are about 70). */
export const CART_JS_BUDGET_BYTES = 90 * 1024;

export type PageScripts = {
  page: string;
  /** The shell and the largest screen chunk with what it imports statically. */
  files: string[];
  gzipBytes: number;
  shellBytes: number;
  /** The largest screen chunk (with its static imports beyond the shell). */
  largestScreen: { files: string[]; gzipBytes: number };
};

function htmlFiles(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...htmlFiles(path, `${prefix}${entry}/`));
    else if (entry.endsWith(".html")) out.push(`${prefix}${entry}`);
  }
  return out;
}

/** Script URLs an HTML page names: module scripts, island components and renderers. */
export function entryScripts(html: string): string[] {
  const urls = new Set<string>();
  const patterns = [
    /<script\b[^>]*\bsrc="([^"]+\.m?js)"/g,
    /\bcomponent-url="([^"]+\.m?js)"/g,
    /\brenderer-url="([^"]+\.m?js)"/g,
    /\bbefore-hydration-url="([^"]+\.m?js)"/g,
  ];
  for (const pattern of patterns) for (const m of html.matchAll(pattern)) urls.add(m[1] ?? "");
  // Inline module scripts import their chunks too.
  for (const m of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const spec of staticImports(m[1] ?? "")) urls.add(spec);
  }
  urls.delete("");
  return [...urls];
}

/** Dynamic `import("./x.js")` specifiers of a JavaScript module. */
export function dynamicImports(code: string): string[] {
  // Minifiers write the specifier as a string or a template literal: import(`./x.js`).
  return [...code.matchAll(/\bimport\(\s*["'`]([^"'`$]+)["'`]\s*\)/g)].map((m) => m[1] ?? "");
}

/** Static import specifiers of a JavaScript module (not dynamic `import()`). */
export function staticImports(code: string): string[] {
  const specs: string[] = [];
  const pattern = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{},\s]+from\s*)?["']([^"']+)["']/g;
  for (const m of code.matchAll(pattern)) specs.push(m[1] ?? "");
  return specs.filter((s) => s.length > 0);
}

function resolveSpec(url: string, spec: string): string | null {
  if (spec.startsWith("./") || spec.startsWith("../")) return posix.join(posix.dirname(url), spec);
  return spec.startsWith("/") ? spec : null;
}

function gzipSize(distDir: string, files: readonly string[]): number {
  return files.reduce(
    (sum, url) => sum + gzipSync(readFileSync(join(distDir, url)), { level: 9 }).length,
    0,
  );
}

function closure(distDir: string, entries: string[]): string[] {
  const seen = new Set<string>();
  const queue = entries.filter((url) => url.startsWith("/"));
  while (queue.length > 0) {
    const url = queue.pop() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(join(distDir, url), "utf8");
    for (const spec of staticImports(code)) {
      const next = resolveSpec(url, spec);
      if (next) queue.push(next);
    }
  }
  return [...seen].sort();
}

/** The scripts of every page under dist/cart, with their compressed total. */
export function cartPageScripts(distDir: string): PageScripts[] {
  return htmlFiles(join(distDir, "cart")).map((file) => {
    const html = readFileSync(join(distDir, "cart", file), "utf8");
    const shell = closure(distDir, entryScripts(html));
    const shellSet = new Set(shell);
    const screens = [
      ...new Set(
        shell.flatMap((url) =>
          dynamicImports(readFileSync(join(distDir, url), "utf8"))
            .map((spec) => resolveSpec(url, spec))
            .filter((u): u is string => u !== null && !shellSet.has(u)),
        ),
      ),
    ].map((url) => {
      const files = closure(distDir, [url]).filter((f) => !shellSet.has(f));
      return { files, gzipBytes: gzipSize(distDir, files) };
    });
    const largestScreen = screens.reduce((a, b) => (b.gzipBytes > a.gzipBytes ? b : a), {
      files: [] as string[],
      gzipBytes: 0,
    });
    const shellBytes = gzipSize(distDir, shell);
    const page = `/cart/${file.replace(/(^|\/)index\.html$/, "").replace(/\.html$/, "")}`;
    return {
      page: page.replace(/\/$/, "") || "/cart",
      files: [...shell, ...largestScreen.files],
      gzipBytes: shellBytes + largestScreen.gzipBytes,
      shellBytes,
      largestScreen,
    };
  });
}
