// E-mail rules: blocked domains, education (teacher) addresses and the school-district redirect
// (spec sections 2.5, 5 and 6).

export function emailDomain(email: string): string {
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
 * The teacher e-mail must be validated for a teacher plan, for a trial with activation required,
 * or when the URL asks for it (validateEduEmail=true).
 */
export function mustValidateTeacherEmail(facts: {
  productCode: string | null;
  isTrial: boolean;
  activationRequired: boolean;
  validateEduEmailParam: boolean;
}): boolean {
  if (facts.validateEduEmailParam) return true;
  if (facts.productCode?.includes("teacher")) return true;
  return facts.isTrial && facts.activationRequired;
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
