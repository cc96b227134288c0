import { describe, expect, it } from "vitest";
import {
  districtRedirect,
  educationEligible,
  educationEmailRequired,
  isBlockedEmail,
  isEducationEmail,
  teacherCheckNeeded,
  teacherEmailValid,
} from "./email-rules.ts";
import { invoiceSummary } from "./invoice.ts";

const district = {
  emailDomains: ["example-district.org"],
  studentUrl: "https://d.example/students",
  staffUrl: "https://d.example/staff",
  studentPattern: "^[^@]+@students\\.example-district\\.org$",
};

describe("e-mail rules", () => {
  it("blocks listed domains and their subdomains", () => {
    expect(isBlockedEmail("a@mailinator.com", ["mailinator.com"])).toBe(true);
    expect(isBlockedEmail("a@x.MAILINATOR.com", ["mailinator.com"])).toBe(true);
    expect(isBlockedEmail("a@notmailinator.com", ["mailinator.com"])).toBe(false);
  });

  it("recognises education addresses", () => {
    for (const email of ["t@school.edu", "t@lincoln.k12.ca.us", "t@uni.ac.uk", "t@x.edu.au"]) {
      expect(isEducationEmail(email)).toBe(true);
    }
    for (const email of ["t@gmail.com", "t@education.com", "t@edu"]) {
      expect(isEducationEmail(email)).toBe(email === "t@edu");
    }
    expect(isEducationEmail("t@example-district.org", ["example-district.org"])).toBe(true);
    expect(teacherEmailValid({ email: "t@school.edu", emailVerified: false })).toBe(false);
    expect(teacherEmailValid({ email: "t@school.edu", emailVerified: true })).toBe(true);
  });

  const noLink = { p: null, productCode: null, tier: null, validateEduEmail: false };
  const free = { productCode: "wv_free", isTrial: false, activationRequired: false, query: noLink };

  it("runs the teacher check for a teacher plan, a trial awaiting activation, or the URL", () => {
    expect(teacherCheckNeeded(free)).toBe(false);
    expect(teacherCheckNeeded({ ...free, productCode: "wv_teacher_12m" })).toBe(true);
    expect(teacherCheckNeeded({ ...free, isTrial: true, activationRequired: true })).toBe(true);
    expect(teacherCheckNeeded({ ...free, isTrial: true })).toBe(false);
    expect(teacherCheckNeeded({ ...free, query: { ...noLink, validateEduEmail: true } })).toBe(
      true,
    );
    // Buying a teacher plan or starting an education trial from a link checks the address first.
    const teacherLink = { ...noLink, p: "buy", productCode: "wv_teacher_12m" };
    expect(teacherCheckNeeded({ ...free, query: teacherLink })).toBe(true);
    const eduTrial = { ...noLink, p: "trial", tier: "education" };
    expect(teacherCheckNeeded({ ...free, query: eduTrial })).toBe(true);
    // Buying a schools plan needs an education address too (spec 6, issue 18 item 2).
    for (const productCode of ["wv_k12_12m", "wv_k12_6m"]) {
      const schools = { ...noLink, p: "buy", productCode, tier: "education" };
      expect(teacherCheckNeeded({ ...free, query: schools })).toBe(true);
      expect(educationEmailRequired({ ...free, query: schools })).toBe(true);
    }
    // A purchase-order school account is not sent away from its own pages.
    expect(educationEmailRequired({ ...free, productCode: "wv_k12_12m" })).toBe(false);
  });

  describe("educationEligible: every education product needs a verified education address", () => {
    const school = { email: "t@school.edu", emailVerified: true };
    it.each([
      ["wv_teacher_12m", school, true],
      ["wv_k12_12m", school, true],
      ["wv_k12_6m", school, true],
      ["wv_edu_trial", school, true],
      ["wv_teacher_12m", { ...school, emailVerified: false }, false],
      ["wv_k12_12m", { ...school, emailVerified: false }, false],
      ["wv_k12_12m", { email: "buyer@example.com", emailVerified: true }, false],
      ["wv_k12_6m", { email: "buyer@example.com", emailVerified: true }, false],
      ["wv_edu_trial", { email: "buyer@example.com", emailVerified: true }, false],
      ["wv_bizoct17_12m", { email: "buyer@example.com", emailVerified: false }, true],
      ["wv_free", { email: "buyer@example.com", emailVerified: false }, true],
    ])("%s for %o: %s", (productCode, facts, expected) => {
      expect(educationEligible({ productCode, ...facts })).toBe(expected);
    });
    it("counts a school district's own domain", () => {
      const facts = { email: "t@example-district.org", emailVerified: true };
      expect(educationEligible({ productCode: "wv_k12_12m", ...facts })).toBe(false);
      expect(
        educationEligible({
          productCode: "wv_k12_12m",
          ...facts,
          extraDomains: ["example-district.org"],
        }),
      ).toBe(true);
    });
  });

  it("sends only education accounts and purchases to the invalid-email page", () => {
    // A new Unlimited trial awaiting activation is checked, but its address need not be a school's.
    const personalTrial = {
      productCode: "wv_unlimited_trial",
      isTrial: true,
      activationRequired: true,
      query: { ...noLink, p: "buy", productCode: "wv_unloct17_12m", tier: "personal" },
    };
    expect(teacherCheckNeeded(personalTrial)).toBe(true);
    expect(educationEmailRequired(personalTrial)).toBe(false);
    // An education trial's account buying a personal plan, or on a page without a purchase, is
    // not sent there: the rule concerns education purchases only (issue 22).
    const eduAccount = { ...personalTrial, productCode: "wv_edu_trial" };
    expect(educationEmailRequired(eduAccount)).toBe(false);
    expect(educationEmailRequired({ ...eduAccount, query: noLink })).toBe(false);
    expect(teacherCheckNeeded({ ...eduAccount, query: noLink })).toBe(true);
    // The education trial or a teacher plan asked for by the link needs one.
    const eduTrialLink = { ...noLink, p: "trial", tier: "education" };
    expect(educationEmailRequired({ ...eduAccount, query: eduTrialLink })).toBe(true);
    const teacherBuy = { ...noLink, p: "buy", productCode: "wv_teacher_12m", tier: "education" };
    expect(educationEmailRequired({ ...free, query: teacherBuy })).toBe(true);
    expect(
      educationEmailRequired({ ...free, query: { ...noLink, p: "buy", tier: "education" } }),
    ).toBe(true);
    const schoolsTrial = { ...noLink, p: "trial", productCode: "wv_k12_12m" };
    expect(educationEmailRequired({ ...free, query: schoolsTrial })).toBe(true);
    expect(educationEmailRequired({ ...free, query: { ...noLink, validateEduEmail: true } })).toBe(
      true,
    );
    expect(educationEmailRequired(free)).toBe(false);
  });

  it("sends district addresses to their pages only on the free product", () => {
    expect(districtRedirect("kid@students.example-district.org", [district], true)).toBe(
      "https://d.example/students",
    );
    expect(districtRedirect("teacher@example-district.org", [district], true)).toBe(
      "https://d.example/staff",
    );
    expect(districtRedirect("teacher@example-district.org", [district], false)).toBeNull();
    expect(districtRedirect("someone@else.org", [district], true)).toBeNull();
  });
});

describe("invoice summary (spec 3.6)", () => {
  const entry = {
    invoiceId: "in_1",
    invoiceNumber: null,
    orderId: "ord_1",
    productCode: "wv_flex2",
    productName: "Flex",
    orderDuration: 12,
    orderEndDate: Date.UTC(2027, 2, 1),
    price: 2999,
    amountPaid: 2500,
  };

  it("uses the last entry", () => {
    const result = invoiceSummary([{ ...entry, orderId: "ord_0" }, entry], "cc");
    expect(result).toEqual({
      ok: true,
      value: {
        orderId: "ord_1",
        productName: "Flex",
        orderDuration: 12,
        orderStartDate: Date.UTC(2026, 2, 1),
        hasFlex: true,
        paymentProcessor: "cc",
        paymentInvoiceId: "in_1",
        price: 2999,
        amountPaid: 2500,
        // What kind of purchase it was, for the completed page (issue 34): the product, its
        // seats and end, and the order before it when it was for the same plan.
        productCode: "wv_flex2",
        seats: 1,
        orderEndDate: Date.UTC(2027, 2, 1),
        previous: { productCode: "wv_flex2", seats: 1 },
      },
    });
    const paypal = invoiceSummary([entry], "paypal");
    expect(paypal.ok && paypal.value.price).toBe(2500);
  });

  it("fails on an empty list or a missing number", () => {
    expect(invoiceSummary([], "paypal")).toEqual({
      ok: false,
      message: "PAYPAL INVOICE WAS NOT GENERATED",
    });
    expect(invoiceSummary([], "cc")).toEqual({ ok: false, message: "INVOICE WAS NOT GENERATED" });
    expect(invoiceSummary([{ ...entry, invoiceId: null }], "cc")).toEqual({
      ok: false,
      message: "INVOICE WAS NOT GENERATED",
    });
  });
});
