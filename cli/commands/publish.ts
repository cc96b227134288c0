// `catalog publish [--dry-run]`: validates the catalogue, checks that its build output is current,
// diffs it against the last published release, and appends a release record (version, date,
// commit, changes) to catalog/releases.json, which the static pages and the server read. Refuses
// an invalid catalogue, a tree with uncommitted changes under catalog/ or src/generated/, and
// stale build output: a release is exactly what is committed. --dry-run writes nothing.
import type { Command } from "commander";
import type { Issue } from "../../src/domain/catalog/issue.ts";
import type { ReleaseRecord, ReleasesFile } from "../../src/domain/catalog/releases.ts";
import type { CatalogFs } from "../core/catalog-fs.ts";
import type { Io } from "../core/output.ts";
import type { OutputFs } from "../core/output-fs.ts";

export type PublishOptions = {
  dir: string;
  outDir: string;
  dryRun: boolean;
  root: string;
  cwd: string;
};

export type PublishGit = {
  /** `git status --porcelain` lines for these paths (empty: nothing uncommitted). */
  dirty(paths: string[]): string[];
  /** The commit checked out. */
  head(): string;
  /** The catalogue files as they were at a commit. */
  fsAt(commit: string): CatalogFs;
};

export type PublishDeps = { fs: CatalogFs; out: OutputFs; git: PublishGit; now: () => number };

export type PublishReport =
  | { ok: false; reason: "invalid"; issues: Issue[]; warnings: Issue[] }
  | { ok: false; reason: "dirty" | "stale"; files: string[] }
  | {
      ok: true;
      dryRun: boolean;
      /** The catalogue is already the last release: nothing to publish. */
      unchanged: boolean;
      release: ReleaseRecord;
      /** Where the record is (or, with --dry-run, would be) written. */
      path: string;
      written: boolean;
    };

export async function publish(options: PublishOptions, deps: PublishDeps): Promise<PublishReport> {
  const [{ loadCatalog }, { build, isStale }, { diffCatalogs }, releases, { ExitError }] =
    await Promise.all([
      import("../core/load-catalog.ts"),
      import("./build.ts"),
      import("../../src/domain/catalog/diff.ts"),
      import("../../src/domain/catalog/releases.ts"),
      import("../core/exit-error.ts"),
    ]);
  const dir = options.dir.replace(/\/+$/, "");
  const outDir = options.outDir.replace(/\/+$/, "");
  const loaded = loadCatalog(deps.fs, dir);
  if (!loaded.ok) {
    return { ok: false, reason: "invalid", issues: loaded.issues, warnings: loaded.warnings };
  }

  const dirty = deps.git.dirty([dir, outDir]);
  if (dirty.length > 0) return { ok: false, reason: "dirty", files: dirty };

  const built = await build(
    { dir, outDir, check: true, root: options.root, cwd: options.cwd },
    { fs: deps.fs, out: deps.out },
  );
  if (!built.ok) {
    return { ok: false, reason: "invalid", issues: built.issues, warnings: built.warnings };
  }
  if (isStale(built)) {
    const files = built.files.filter((f) => f.status !== "unchanged").map((f) => f.path);
    return { ok: false, reason: "stale", files };
  }
  const versionText = deps.out.read(`${outDir}/catalog-version.json`);
  const version = versionText ? (JSON.parse(versionText) as { version: string }).version : "";

  const path = `${dir}/${releases.RELEASES_FILE}`;
  const text = deps.out.read(path);
  const previous = releases.latestRelease(
    text === undefined ? undefined : (JSON.parse(text) as ReleasesFile),
  );
  if (previous?.version === version) {
    return {
      ok: true,
      dryRun: options.dryRun,
      unchanged: true,
      release: previous,
      path,
      written: false,
    };
  }
  const now = deps.now();
  let changes = null;
  if (previous) {
    const before = loadCatalog(deps.git.fsAt(previous.commit), dir);
    if (!before.ok) {
      throw new ExitError(
        `the last release (${previous.version}, commit ${previous.commit}) does not validate any more, so there is nothing to compare with`,
      );
    }
    changes = diffCatalogs(before.catalog, loaded.catalog, now);
  }
  const release: ReleaseRecord = {
    version,
    publishedAt: new Date(now).toISOString(),
    commit: deps.git.head(),
    previous: previous?.version ?? null,
    changes,
  };
  if (!options.dryRun) {
    const file = text === undefined ? { releases: [] } : JSON.parse(text);
    file.releases.push(release);
    deps.out.write(path, `${JSON.stringify(file, null, 2)}\n`);
  }
  return {
    ok: true,
    dryRun: options.dryRun,
    unchanged: false,
    release,
    path,
    written: !options.dryRun,
  };
}

export async function formatPublishReport(report: PublishReport, io: Io): Promise<string> {
  const { style } = io;
  if (!report.ok) {
    if (report.reason === "invalid") {
      const { formatIssues } = await import("../core/format-issues.ts");
      return `${style.red("not published:")} the catalogue is not valid\n${formatIssues(report.issues, report.warnings, style)}`;
    }
    const why =
      report.reason === "dirty"
        ? "uncommitted changes; commit them first (a release is what is committed):"
        : "the build output is out of date; run npm run catalog:build and commit:";
    return [`${style.red("not published:")} ${why}`, ...report.files.map((f) => `  ${f}`)].join(
      "\n",
    );
  }
  const { release } = report;
  if (report.unchanged) {
    return `${style.green("✔")} nothing to publish: ${release.version} is the last release (${release.publishedAt})`;
  }
  const head = report.dryRun
    ? `would publish ${release.version} (dry run: nothing written)`
    : `${style.green("✔")} published ${release.version}: ${report.path} (commit it)`;
  const lines = [head, `  commit ${release.commit}, ${release.publishedAt}`];
  if (!release.changes) lines.push("  the first release");
  else {
    const { formatDiff } = await import("./diff.ts");
    const diff = await formatDiff(
      { base: `release ${release.previous}`, head: release.version, diff: release.changes },
      style,
    );
    lines.push("", diff);
  }
  return lines.join("\n");
}

export function register(program: Command, io: Io, root: string): void {
  program
    .command("publish")
    .description(
      "validate, check the build, diff against the last release and record a new release",
    )
    .option("--dir <dir>", "catalogue folder", "catalog")
    .option("--out <dir>", "folder of the generated catalogue", "src/generated")
    .option("--dry-run", "check and show the release, write nothing")
    .option("--json", "print the result as JSON")
    .action(async (options: { dir: string; out: string; dryRun?: boolean; json?: boolean }) => {
      const [{ diskFs, gitFs }, { diskOutputFs }, { execFileSync }] = await Promise.all([
        import("../core/catalog-fs.ts"),
        import("../core/output-fs.ts"),
        import("node:child_process"),
      ]);
      const git = (args: string[]) =>
        execFileSync("git", args, {
          cwd: io.cwd,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        });
      const report = await publish(
        {
          dir: options.dir,
          outDir: options.out,
          dryRun: options.dryRun === true,
          root,
          cwd: io.cwd,
        },
        {
          fs: diskFs,
          out: diskOutputFs,
          now: Date.now,
          git: {
            dirty: (paths) =>
              git(["status", "--porcelain", "--", ...paths])
                .split("\n")
                .filter((line) => line.trim() !== ""),
            head: () => git(["rev-parse", "HEAD"]).trim(),
            fsAt: (commit) => gitFs(commit, io.cwd),
          },
        },
      );
      io.out(
        options.json ? JSON.stringify(report, null, 2) : await formatPublishReport(report, io),
      );
      process.exitCode = report.ok ? 0 : 1;
    });
}
