// Ends a price experiment in the catalogue files (`catalog experiment end`): the kept group's
// prices become the default prices of the plans it covered, and the experiment's window closes at
// the given time so that its history stays named in price-tests.yaml. The files are edited in
// place, value by value at the offsets `yaml` reports, so every other byte (comments, quoting,
// folded text, layout) stays as the pricing team wrote it. Nothing is written unless the
// catalogue after the change validates.
import { isMap, isScalar, isSeq, type Node, parseDocument, type Scalar } from "yaml";
import { type Catalog, CONTROL } from "../../src/domain/catalog/catalog-schema.ts";
import { closest } from "../../src/domain/catalog/closest.ts";
import type { Issue } from "../../src/domain/catalog/issue.ts";
import type { CatalogFs } from "./catalog-fs.ts";
import { ExitError } from "./exit-error.ts";
import { validateRaw } from "./load-catalog.ts";
import type { OutputFs } from "./output-fs.ts";
import { displayDir, type RawFile, readTexts } from "./read-texts.ts";

/** One default price replaced by the kept set's. Amounts in cents. */
export type PriceEdit = {
  file: string;
  code: string;
  field: "price" | "seatPrice";
  before: number;
  after: number;
  /** The comment on the price's line, which may speak of the old price. */
  comment?: string;
};

export type EndOptions = { dir: string; id: string; keep: string; atMs: number };

export type EndReport =
  | {
      ok: false;
      /** before: the catalogue does not validate now; after: it would not once changed. */
      when: "before" | "after";
      issues: Issue[];
      warnings: Issue[];
    }
  | {
      ok: true;
      experiment: string;
      keep: string;
      endedAt: number;
      edits: PriceEdit[];
      /** Covered plans the kept set has no price for: they keep their default price. */
      unchanged: string[];
      /** Files written, under the catalogue folder. */
      files: string[];
    };

type TextEdit = { start: number; end: number; text: string };

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

export function endExperiment(
  options: EndOptions,
  deps: { fs: CatalogFs; out: OutputFs; now: () => number },
): EndReport {
  const dir = options.dir.replace(/\/+$/, "");
  const raw = readTexts(deps.fs, dir);
  const loaded = validateRaw(raw, dir);
  if (!loaded.ok) {
    return { ok: false, when: "before", issues: loaded.issues, warnings: loaded.warnings };
  }
  const index = checkRequest(loaded.catalog, options, displayDir(dir));
  if (options.keep !== CONTROL && options.atMs > deps.now()) {
    // The default prices change as soon as this catalogue is published: were the window to run on,
    // the control group would already see the kept set's prices and the comparison would be void.
    throw new ExitError(
      `--at ${iso(options.atMs)} is in the future: with --keep ${options.keep} the default prices change when this catalogue is published, so the experiment ends then
Leave out --at, or run the command when the experiment should end.`,
    );
  }
  const experiment = (loaded.catalog.experiments ?? [])[index];
  if (experiment === undefined) throw new Error(`experiment ${options.id} vanished`);

  const edits = new Map<string, TextEdit[]>();
  const add = (path: string, edit: TextEdit) => edits.set(path, [...(edits.get(path) ?? []), edit]);

  const priceTests = raw.find((file) => file.relativePath === "price-tests.yaml");
  const windowEnd = scalarAt(priceTests, ["experiments", index, "to"]);
  if (priceTests === undefined || windowEnd === undefined) {
    throw new Error(`price-tests.yaml has no experiments[${index}].to`);
  }
  add(priceTests.relativePath, {
    ...rangeOf(windowEnd),
    text: quotedLike(windowEnd, iso(options.atMs)),
  });

  const priceEdits: PriceEdit[] = [];
  const priced = new Set<string>();
  if (options.keep !== CONTROL) {
    for (const file of raw.filter((f) => f.relativePath.startsWith("plans/") && f.text)) {
      const text = file.text ?? "";
      const variants = parseDocument(text).get("variants", true);
      if (!isSeq(variants)) continue;
      for (const variant of variants.items) {
        if (!isMap(variant)) continue;
        const code = String(variant.get("code"));
        if (!experiment.plans.includes(code)) continue;
        for (const field of ["price", "seatPrice"] as const) {
          const target = variant.get(field, true);
          const source = variant.getIn(["priceTests", options.keep, field], true);
          if (!isScalar(target) || !isScalar(source)) continue;
          const sourceText = text.slice(...bounds(source));
          add(file.relativePath, { ...rangeOf(target), text: sourceText });
          priced.add(code);
          priceEdits.push({
            file: `${displayDir(dir)}/${file.relativePath}`,
            code,
            field,
            before: cents(target),
            after: cents(source),
            ...(target.comment ? { comment: target.comment.trim() } : {}),
          });
        }
      }
    }
  }

  const changed: RawFile[] = raw.map((file) => {
    const fileEdits = edits.get(file.relativePath);
    return fileEdits && file.text !== null
      ? { ...file, text: applyEdits(file.text, fileEdits) }
      : file;
  });
  const after = validateRaw(changed, dir);
  if (!after.ok)
    return { ok: false, when: "after", issues: after.issues, warnings: after.warnings };
  const files: string[] = [];
  for (const file of changed) {
    if (!edits.has(file.relativePath) || file.text === null) continue;
    const path = `${dir}/${file.relativePath}`;
    deps.out.write(path, file.text);
    files.push(`${displayDir(dir)}/${file.relativePath}`);
  }
  return {
    ok: true,
    experiment: experiment.id,
    keep: options.keep,
    endedAt: options.atMs,
    edits: priceEdits,
    unchanged: options.keep === CONTROL ? [] : experiment.plans.filter((c) => !priced.has(c)),
    files,
  };
}

/** The experiment's index, or a refusal the user can act on. */
function checkRequest(catalog: Catalog, options: EndOptions, dir: string): number {
  const experiments = catalog.experiments ?? [];
  const ids = experiments.map((x) => x.id);
  const index = ids.indexOf(options.id);
  const experiment = experiments[index];
  if (experiment === undefined) {
    const suggestion = closest(options.id, ids);
    throw new ExitError(
      `no experiment ${options.id} in ${dir}/price-tests.yaml` +
        (suggestion ? `: did you mean ${suggestion}?` : "") +
        (ids.length > 0 ? `\nExperiments: ${ids.join(", ")}.` : "\nIt has no experiments."),
    );
  }
  const groups = experiment.groups.map((g) => g.set);
  if (!groups.includes(options.keep)) {
    throw new ExitError(
      `${options.keep} is not a group of experiment ${options.id}: expected one of ${groups.join(", ")}`,
    );
  }
  if (experiment.to <= options.atMs) {
    throw new ExitError(
      `experiment ${options.id} already ended at ${iso(experiment.to)}: there is nothing to end\n` +
        "To take a price set's prices now, change the plan variants' price in catalog/plans/ (catalog diff shows the change).",
    );
  }
  if (options.atMs <= experiment.from) {
    throw new ExitError(
      `experiment ${options.id} has not started (it starts at ${iso(experiment.from)}): end it after its start, or remove it from price-tests.yaml`,
    );
  }
  return index;
}

function scalarAt(file: RawFile | undefined, path: (string | number)[]): Scalar | undefined {
  if (!file?.text) return undefined;
  const node = parseDocument(file.text).getIn(path, true);
  return isScalar(node) ? node : undefined;
}

function bounds(node: Node): [number, number] {
  const [start, end] = node.range ?? [0, 0];
  return [start, end];
}

function rangeOf(node: Node): { start: number; end: number } {
  const [start, end] = bounds(node);
  return { start, end };
}

/** The new value written as the old one was: double-quoted, single-quoted or plain. */
function quotedLike(node: Scalar, value: string): string {
  if (node.type === "QUOTE_DOUBLE") return JSON.stringify(value);
  if (node.type === "QUOTE_SINGLE") return `'${value}'`;
  return value;
}

/** A YAML amount in dollars (35.99) as cents. */
function cents(node: Scalar): number {
  return Math.round(Number(node.value) * 100);
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}
