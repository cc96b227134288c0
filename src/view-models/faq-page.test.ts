import { describe, expect, it } from "vitest";
import { faqPageModel } from "./faq-page.ts";

describe("faqPageModel", () => {
  it("shows the general, education and learning-video lists in that order, skipping empty ones", () => {
    const model = faqPageModel({
      faqs: {
        learningVideo: [{ question: "What is it?", answer: "Lessons." }],
        general: [{ question: "Can I cancel?", answer: "Yes." }],
        education: [],
      },
    });
    expect(model.lists).toEqual([
      {
        id: "faq-general",
        heading: "Plans and billing",
        items: [{ id: "faq-general-1", question: "Can I cancel?", answer: "Yes." }],
      },
      {
        id: "faq-learningVideo",
        heading: "Interactive learning video",
        items: [{ id: "faq-learningVideo-1", question: "What is it?", answer: "Lessons." }],
      },
    ]);
    expect(model.meta.path).toBe("/faq");
  });
});
