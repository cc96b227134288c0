import { describe, expect, it } from "vitest";
import {
  districtRedirect,
  isBlockedEmail,
  isEducationEmail,
  mustValidateTeacherEmail,
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

  it("knows when the teacher e-mail must be validated", () => {
    const base = {
      productCode: "wv_free",
      isTrial: false,
      activationRequired: false,
      validateEduEmailParam: false,
    };
    expect(mustValidateTeacherEmail(base)).toBe(false);
    expect(mustValidateTeacherEmail({ ...base, productCode: "wv_teacher_12m" })).toBe(true);
    expect(mustValidateTeacherEmail({ ...base, isTrial: true, activationRequired: true })).toBe(
      true,
    );
    expect(mustValidateTeacherEmail({ ...base, validateEduEmailParam: true })).toBe(true);
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
        orderDuration: 12,
        orderStartDate: Date.UTC(2026, 2, 1),
        hasFlex: true,
        paymentProcessor: "cc",
        paymentInvoiceId: "in_1",
        price: 2999,
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
