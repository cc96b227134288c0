// The file system a command reads a catalogue through (STYLE.md point 8): the real disk, a git
// revision, or an in-memory map in tests.
import { execFileSync } from "node:child_process";
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ExitError } from "./exit-error.ts";

export type CatalogFs = {
  /** Every file below `dir`, recursively, as paths relative to `dir` with `/` separators. */
  list(dir: string): string[];
  read(path: string): string;
};

export const diskFs: CatalogFs = {
  list(dir) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        throw new ExitError(`no catalogue folder at ${dir}: expected a folder of YAML files`);
      }
      throw error;
    }
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
      .sort();
  },
  read: (path) => readFileSync(path, "utf8"),
};

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

type Git = (args: string[], cwd: string) => string;
const runGit: Git = (args, cwd) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 << 20,
  });

/** The catalogue as it was at a git revision: `git ls-tree` lists, `git show` reads. */
export function gitFs(revision: string, cwd = process.cwd(), git: Git = runGit): CatalogFs {
  try {
    git(["rev-parse", "--verify", "--quiet", `${revision}^{commit}`], cwd);
  } catch {
    throw new ExitError(
      `${revision} is neither a folder nor a git revision: expected a path or a commit, branch or tag`,
    );
  }
  return {
    list(dir) {
      const prefix = `${dir.replace(/\/+$/, "")}/`;
      return git(["ls-tree", "-r", "--name-only", revision, "--", prefix], cwd)
        .split("\n")
        .filter((line) => line.startsWith(prefix))
        .map((line) => line.slice(prefix.length))
        .sort();
    },
    read: (path) => git(["show", `${revision}:./${path}`], cwd),
  };
}

/** An in-memory file system: paths to contents. */
export function memoryFs(files: Record<string, string>): CatalogFs {
  return {
    list(dir) {
      const prefix = `${dir.replace(/\/+$/, "")}/`;
      const found = Object.keys(files).filter((path) => path.startsWith(prefix));
      if (found.length === 0)
        throw new ExitError(`no catalogue folder at ${dir}: expected a folder of YAML files`);
      return found.map((path) => path.slice(prefix.length)).sort();
    },
    read(path) {
      const text = files[path];
      if (text === undefined) throw new Error(`memoryFs: no file ${path}`);
      return text;
    },
  };
}
