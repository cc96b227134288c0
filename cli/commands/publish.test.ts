import { describe, expect, it } from "vitest";
import { makeCatalogInput, makeFamily } from "../../src/domain/catalog/testing/builders.ts";
import { type CatalogFs, memoryFs } from "../core/catalog-fs.ts";
import { memoryIo } from "../core/output.ts";
import { memoryOutputFs } from "../core/output-fs.ts";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { build } from "./build.ts";
import { formatPublishReport, type PublishGit, publish } from "./publish.ts";

const options = { dir: "catalog", outDir: "src/generated", root: "/repo", cwd: "/repo" };
const now = Date.UTC(2026, 10, 20, 9);

/** The catalogue texts with Power's annual price changed (and its essentials variant with it). */
function repriced(price: number): Record<string, string> {
  const input = makeCatalogInput();
  return catalogTexts({
    plans: input.plans.map((f) =>
      f.family === "power"
        ? makeFamily({
            variants: makeFamily().variants.map((v) =>
              v.code === "wv_single_12m"
                ? { ...v, price }
                : v.code === "wv_single_plus_12m"
                  ? { ...v, price: Math.round((price + 119.88) * 100) / 100 }
                  : v,
            ),
          })
        : f,
    ),
  });
}

/** A working tree: the catalogue, its build output (current unless told), and a fake git. */
async function tree(
  texts: Record<string, string>,
  git: Partial<PublishGit> & { commits?: Record<string, CatalogFs> } = {},
) {
  const fs = memoryFs(texts);
  const out = memoryOutputFs();
  await build({ ...options, check: false }, { fs, out });
  const fakeGit: PublishGit = {
    dirty: git.dirty ?? (() => []),
    head: git.head ?? (() => "c0ffee1"),
    fsAt: (commit) => {
      const found = git.commits?.[commit];
      if (!found) throw new Error(`no commit ${commit}`);
      return found;
    },
  };
  return { fs, out, git: fakeGit, now: () => now };
}

describe("catalog publish", () => {
  it("records the first release, and with --dry-run writes nothing", async () => {
    const deps = await tree(catalogTexts());
    const dry = await publish({ ...options, dryRun: true }, deps);
    expect(dry).toMatchObject({ ok: true, dryRun: true, written: false, unchanged: false });
    expect(deps.out.read("catalog/releases.json")).toBeUndefined();

    const report = await publish({ ...options, dryRun: false }, deps);
    const version = JSON.parse(deps.out.read("src/generated/catalog-version.json") ?? "").version;
    expect(report).toMatchObject({
      ok: true,
      written: true,
      release: {
        version,
        publishedAt: "2026-11-20T09:00:00.000Z",
        commit: "c0ffee1",
        previous: null,
        changes: null,
      },
    });
    const file = JSON.parse(deps.out.read("catalog/releases.json") ?? "");
    expect(file.releases).toHaveLength(1);
    expect(await formatPublishReport(report, memoryIo())).toContain(`published ${version}`);

    const again = await publish({ ...options, dryRun: false }, deps);
    expect(again).toMatchObject({ ok: true, unchanged: true, written: false });
    expect(await formatPublishReport(again, memoryIo())).toContain("nothing to publish");
  });

  it("diffs against the last release's commit and appends a record", async () => {
    const first = await tree(catalogTexts());
    await publish({ ...options, dryRun: false }, first);
    const releases = first.out.read("catalog/releases.json") ?? "";
    const second = await tree(repriced(71.88), {
      head: () => "beef002",
      commits: { c0ffee1: memoryFs(catalogTexts()) },
    });
    second.out.write("catalog/releases.json", releases);
    const report = await publish({ ...options, dryRun: false }, second);
    if (!report.ok) throw new Error(`refused: ${JSON.stringify(report)}`);
    expect(report.release.previous).toBe(JSON.parse(releases).releases[0].version);
    expect(report.release.changes?.pricesUp).toMatchObject([
      { item: "wv_single_12m", before: 5988, after: 7188 },
      { item: "wv_single_plus_12m", before: 17976, after: 19176 },
    ]);
    expect(JSON.parse(second.out.read("catalog/releases.json") ?? "").releases).toHaveLength(2);
    const text = await formatPublishReport(report, memoryIo());
    expect(text).toContain("Prices up (2)");
  });

  it("refuses an invalid catalogue, uncommitted changes and stale build output", async () => {
    const invalid = await tree(catalogTexts());
    const broken = await publish(
      { ...options, dryRun: true },
      { ...invalid, fs: memoryFs(catalogTexts({}, { "exports.yaml": "maxExportMs: [" })) },
    );
    expect(broken).toMatchObject({ ok: false, reason: "invalid" });

    const dirty = await tree(catalogTexts(), { dirty: () => [" M catalog/plans/power.yaml"] });
    const refused = await publish({ ...options, dryRun: true }, dirty);
    expect(refused).toEqual({
      ok: false,
      reason: "dirty",
      files: [" M catalog/plans/power.yaml"],
    });
    expect(await formatPublishReport(refused, memoryIo())).toMatchInlineSnapshot(`
      "not published: uncommitted changes; commit them first (a release is what is committed):
         M catalog/plans/power.yaml"
    `);

    const stale = await tree(catalogTexts());
    const staleReport = await publish(
      { ...options, dryRun: false },
      { ...stale, fs: memoryFs(repriced(71.88)) },
    );
    expect(staleReport).toEqual({
      ok: false,
      reason: "stale",
      files: ["src/generated/catalog.json", "src/generated/catalog-version.json"],
    });
    expect(stale.out.read("catalog/releases.json")).toBeUndefined();
  });
});
