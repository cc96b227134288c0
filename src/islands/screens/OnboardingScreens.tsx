// Segmentation steps (what-for, what-role, about-you) keep their answers locally as JSON
// (segmentationInfo, spec 3.1); the redirect pages send the person on (template, segmentation).
import { useStore } from "@nanostores/react";
import { hrefFor, type ScreenId } from "../../domain/checkout/routes.ts";
import { $query } from "../../stores/router.ts";
import {
  $segmentationInfo,
  type SegmentationInfo,
  saveSegmentation,
} from "../../stores/segmentation.ts";
import { Frame } from "./Frame.tsx";

type Step = { field: keyof SegmentationInfo; choices: string[]; next: ScreenId | null };

export const SEGMENTATION_STEPS: Partial<Record<ScreenId, Step>> = {
  "what-for": { field: "purpose", choices: ["Work", "School", "Personal"], next: "what-role" },
  "what-role": {
    field: "role",
    choices: ["Marketing", "Teacher", "Student", "Creator", "Other"],
    next: "about-you",
  },
  "about-you": {
    field: "about",
    choices: ["Just me", "2 to 10 people", "More than 10"],
    next: null,
  },
};

export function SegmentationScreen({ title, screen }: { title: string; screen: ScreenId }) {
  const info = useStore($segmentationInfo);
  const step = SEGMENTATION_STEPS[screen];
  if (!step) return <Frame title={title} />;
  const chosen = info[step.field];
  return (
    <Frame title={title}>
      <fieldset className="choices">
        <legend className="vh">{title}</legend>
        {step.choices.map((choice) => (
          <label key={choice}>
            <input
              type="radio"
              name={step.field}
              value={choice}
              checked={chosen === choice}
              onChange={() => saveSegmentation({ [step.field]: choice })}
            />{" "}
            {choice}
          </label>
        ))}
      </fieldset>
      <a className="btn" href={step.next ? hrefFor(step.next) : hrefFor("plans")}>
        Continue
      </a>
    </Frame>
  );
}

export function TemplateRedirectScreen({ title }: { title: string }) {
  const query = useStore($query);
  const target = query.templateId
    ? `/app?templateId=${encodeURIComponent(query.templateId)}`
    : "/app";
  return (
    <Frame title={title}>
      <p>Your template opens in the editor.</p>
      <a className="btn" href={target}>
        Open the template
      </a>
    </Frame>
  );
}

export function SegmentationRedirectScreen({ title }: { title: string }) {
  return (
    <Frame title={title}>
      <p>A few questions help us set up your account.</p>
      <a className="btn" href={hrefFor("what-for")}>
        Start
      </a>
    </Frame>
  );
}
