// E-mail rules: blocked domains, education (teacher) addresses and the school-district redirect
// (spec sections 2.5, 5 and 6).
import { isEducationCode } from "./tier.ts";

function emailDomain(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 0
    ? ""
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

function onDomain(domain: string, base: string): boolean {
  const b = base.toLowerCase();
  return domain === b || domain.endsWith(`.${b}`);
}

/** Blocked e-mail domain status rejects the e-mail (subdomains of a blocked domain too). */
export function isBlockedEmail(email: string, blockedDomains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domain !== "" && blockedDomains.some((blocked) => onDomain(domain, blocked));
}

// Education domains: US .edu and K-12 (.k12.<state>.us), and the academic or school second-level
// domains of other countries (.edu.au, .ac.uk, .sch.uk, ...). Extra domains (school districts)
// can be passed in.
const EDUCATION_PATTERNS = [
  /(^|\.)edu$/,
  /\.k12\.[a-z]{2}\.us$/,
  /\.(edu|ac|sch|school)\.[a-z]{2}$/,
];

export function isEducationEmail(email: string, extraDomains: readonly string[] = []): boolean {
  const domain = emailDomain(email);
  if (domain === "") return false;
  return (
    EDUCATION_PATTERNS.some((pattern) => pattern.test(domain)) ||
    extraDomains.some((d) => onDomain(domain, d))
  );
}

/** The teacher-plan check: an education address that the owner has verified. */
export function teacherEmailValid(facts: {
  email: string;
  emailVerified: boolean;
  extraDomains?: readonly string[];
}): boolean {
  return facts.emailVerified && isEducationEmail(facts.email, facts.extraDomains);
}

/**
 * Spec 6: education plans need a valid education e-mail. Every education product (the teacher
 * plan, the schools plans of 12 and 6 months, the education trial) may be quoted, bought or tried
 * only by an account whose education address is verified; anything else is not an education
 * product and needs nothing.
 */
export function educationEligible(facts: {
  productCode: string;
  email: string;
  emailVerified: boolean;
  extraDomains?: readonly string[];
}): boolean {
  return !isEducationCode(facts.productCode) || teacherEmailValid(facts);
}

/** What the teacher e-mail rules read: the account, and the buy or trial link of the page. */
export type TeacherCheckFacts = {
  productCode: string;
  isTrial: boolean;
  activationRequired: boolean;
  query: {
    p: string | null;
    productCode: string | null;
    tier: string | null;
    validateEduEmail: boolean;
  };
};

/** The teacher plan and the education trial: the products a teacher's address must back. */
function isTeacherProduct(code: string | null): boolean {
  return code !== null && (code.includes("teacher") || code === "wv_edu_trial");
}

/**
 * Whether a failed teacher check sends the person to the invalid-email page (spec 2.5: an
 * invalid or unverified *education* e-mail): only for an education purchase on this page (issue
 * 22): the URL asks (validateEduEmail=true), the page buys or tries an education product (teacher,
 * schools, the education trial: educationEligible, issue 18 item 2), or buys or tries with
 * tier=education. The account's own plan does not count: an education trial's account that buys
 * Unlimited, or looks at the plans, is not sent there. A personal or business trial that awaits
 * activation is checked (spec 4) but never sent there either: its address need not be a school's
 * (docs/decisions/0021-trial-landing.md).
 */
export function educationEmailRequired(f: TeacherCheckFacts): boolean {
  const { query } = f;
  const k12 = query.productCode?.includes("k12") ?? false;
  return (
    query.validateEduEmail ||
    (query.p !== null && query.productCode !== null && isEducationCode(query.productCode)) ||
    (query.p === "buy" && query.tier === "education") ||
    (query.p === "trial" && (query.tier === "education" || k12))
  );
}

/**
 * Whether the teacher e-mail check runs (spec 4 and 5): for a teacher plan, a trial with
 * activation required, validateEduEmail=true, and wherever a failure would redirect.
 */
export function teacherCheckNeeded(f: TeacherCheckFacts): boolean {
  return (
    (f.isTrial && f.activationRequired) ||
    isTeacherProduct(f.productCode) ||
    educationEmailRequired(f)
  );
}

export type SchoolDistrictRule = {
  emailDomains: readonly string[];
  studentUrl: string;
  staffUrl: string;
  studentPattern: string;
};

/** A district's addresses go to its student or staff page when the product is free. */
export function districtRedirect(
  email: string,
  districts: readonly SchoolDistrictRule[],
  productIsFree: boolean,
): string | null {
  if (!productIsFree) return null;
  const domain = emailDomain(email);
  const district = districts.find((d) => d.emailDomains.some((base) => onDomain(domain, base)));
  if (!district) return null;
  let student = false;
  try {
    student = new RegExp(district.studentPattern, "i").test(email);
  } catch {
    student = false;
  }
  return student ? district.studentUrl : district.staffUrl;
}
