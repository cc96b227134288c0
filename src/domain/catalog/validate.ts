// Validates a catalogue in stages (STYLE.md point 2): each file against the schema of its kind
// (shape and defaults), then normalisation into the catalogue the product reads, then the rules
// across entities. Pure: the files come in already read and parsed (cli/core/read-catalog.ts).
import type { Catalog } from "./catalog-schema.ts";
import { type FieldPath, formatPath, type Issue, sortIssues } from "./issue.ts";
import { messages, type Problem } from "./messages.ts";
import { normalise, type ParsedSources, type PlanOrigin } from "./normalise.ts";
import { RULES, WARNING_RULES } from "./rules/index.ts";
import type { Locator, RuleIssue } from "./rules/rule.ts";
import { reword } from "./schema-issues.ts";
import { REQUIRED_KINDS, type SourceFile } from "./source-file.ts";
import { FILE_KINDS, type FileKind, PlanVariant } from "./source-schema.ts";

export type ValidationResult =
  | { ok: true; catalog: Catalog; warnings: Issue[] }
  | { ok: false; issues: Issue[]; warnings: Issue[] };

export type ValidateOptions = {
  /** The catalogue folder as the user names it, used for files that are missing. */
  root?: string;
};

function issueAt(file: SourceFile, path: FieldPath, problem: Problem): Issue {
  const line = file.lineOf(path);
  return {
    code: problem.code,
    file: file.path,
    ...(line === undefined ? {} : { line }),
    path: formatPath(path),
    message: problem.message,
    ...(problem.hint ? { hint: problem.hint } : {}),
  };
}

const VARIANT_FIELDS = new Set(Object.keys(PlanVariant.shape));

/** The file and field path of a rule's finding. */
function locate(
  at: Locator,
  files: Map<FileKind, SourceFile>,
  plans: Map<string, SourceFile>,
  planOrigins: readonly PlanOrigin[],
): { file: SourceFile; path: FieldPath } | undefined {
  const field = at.field ?? [];
  if (at.entity === "plans") {
    const origin = planOrigins[at.index];
    const file = origin && plans.get(origin.file);
    if (!origin || !file) return undefined;
    const [first] = field;
    const inVariant = typeof first === "string" && VARIANT_FIELDS.has(first);
    return { file, path: inVariant ? ["variants", origin.variant, ...field] : field };
  }
  const where: Record<Exclude<Locator["entity"], "plans">, [FileKind, string]> = {
    addOns: ["essentials.yaml", "addOns"],
    singleExports: ["exports.yaml", "singleExports"],
    exportUpgrades: ["exports.yaml", "exportUpgrades"],
    seatStructures: ["seat-bands.yaml", "structures"],
    campaigns: ["campaigns.yaml", "campaigns"],
    priceSets: ["price-tests.yaml", "priceSets"],
    priceMigrations: ["price-migrations.yaml", "migrations"],
    experiments: ["price-tests.yaml", "experiments"],
  };
  const [kind, list] = where[at.entity];
  const file = files.get(kind);
  return file && { file, path: [list, at.index, ...field] };
}

function dedupe(issues: readonly Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.file}\0${issue.path}\0${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function validateCatalog(
  files: readonly SourceFile[],
  options: ValidateOptions = {},
): ValidationResult {
  const root = options.root ?? "catalog";
  const issues: Issue[] = [];
  const parsed = new Map<SourceFile, unknown>();
  let broken = 0;

  for (const file of files) {
    if (file.problems && file.problems.length > 0) {
      issues.push(...file.problems);
      broken++;
      continue;
    }
    const schema = FILE_KINDS[file.kind];
    const result = schema.safeParse(file.data);
    if (result.success) {
      parsed.set(file, result.data);
      continue;
    }
    broken++;
    for (const zodIssue of result.error.issues) {
      for (const { path, ...problem } of reword(zodIssue, schema, file.data)) {
        issues.push(issueAt(file, path, problem));
      }
    }
  }

  const present = new Set(files.map((file) => file.kind));
  for (const kind of REQUIRED_KINDS) {
    if (present.has(kind)) continue;
    const problem = kind === "plans/*.yaml" ? messages.noPlanFamilies() : messages.missingFile();
    const file = kind === "plans/*.yaml" ? `${root}/plans/` : `${root}/${kind}`;
    issues.push({ code: problem.code, file, path: "", message: problem.message });
    broken++;
  }

  if (issues.length > 0) {
    const note = messages.crossChecksSkipped(broken);
    const warnings =
      broken > 0 ? [{ code: note.code, file: root, path: "", message: note.message }] : [];
    return { ok: false, issues: sortIssues(dedupe(issues)), warnings };
  }

  const single = new Map<FileKind, SourceFile>();
  const plans = new Map<string, SourceFile>();
  for (const file of files) {
    if (file.kind === "plans/*.yaml") plans.set(file.path, file);
    else single.set(file.kind, file);
  }
  const data = (kind: FileKind) => parsed.get(single.get(kind) as SourceFile) as never;
  const sources: ParsedSources = {
    plans: [...plans.values()].map((file) => ({
      file: file.path,
      data: parsed.get(file) as never,
    })),
    essentials: data("essentials.yaml"),
    exports: data("exports.yaml"),
    seatBands: data("seat-bands.yaml"),
    campaigns: data("campaigns.yaml"),
    priceTests: data("price-tests.yaml"),
    taxRates: data("tax-rates.yaml"),
    marketing: data("marketing.yaml"),
    accounts: data("accounts.yaml"),
    priceMigrations: single.has("price-migrations.yaml")
      ? data("price-migrations.yaml")
      : undefined,
  };
  const { catalog, planOrigins } = normalise(sources);

  const toIssues = (found: readonly RuleIssue[]): Issue[] =>
    found.flatMap(({ at, ...problem }) => {
      const where = locate(at, single, plans, planOrigins);
      return where ? [issueAt(where.file, where.path, problem)] : [];
    });
  const ruleIssues = toIssues(RULES.flatMap((rule) => rule(catalog)));
  const warnings = toIssues(WARNING_RULES.flatMap((rule) => rule(catalog)));
  if (ruleIssues.length > 0) {
    return {
      ok: false,
      issues: sortIssues(dedupe(ruleIssues)),
      warnings: sortIssues(dedupe(warnings)),
    };
  }
  return { ok: true, catalog, warnings: sortIssues(dedupe(warnings)) };
}
